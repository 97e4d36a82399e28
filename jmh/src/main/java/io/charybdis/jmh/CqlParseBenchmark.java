package io.charybdis.jmh;

import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.cql.syntax.ParsedStatement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/** Parse throughput of typical statements (what PREPARE and unprepared QUERY pay). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class CqlParseBenchmark {
    @Param({
            "SELECT * FROM ks.t WHERE pk = ? AND ck > ? LIMIT 100",
            "INSERT INTO keyspace1.standard1 (key, \"C0\", \"C1\", \"C2\", \"C3\", \"C4\") VALUES (?, ?, ?, ?, ?, ?)",
            "UPDATE ks.users SET emails = emails + {'a@b.c'}, last_seen = toTimestamp(now()) WHERE id = ? IF EXISTS",
            "CREATE TABLE ks.events (sensor text, day int, at timestamp, reading double, PRIMARY KEY ((sensor, day), at)) WITH CLUSTERING ORDER BY (at DESC) AND compaction = {'class': 'LeveledCompactionStrategy'}"
    })
    public String statement;

    @Benchmark
    public ParsedStatement parse() {
        return CqlParser.prepare(statement);
    }
}
