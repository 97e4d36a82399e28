package io.charybdis.stress.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.stress.dist.DistributionSpec.Kind;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The command lines of issue 6 and of cassandra-stress's documentation, and the errors bad ones get. */
class StressSettingsTest {

    private static StressSettings parse(String line) {
        return StressSettings.parse(ShellWords.split(line));
    }

    @Test
    void shouldParsePopulateOf270MillionPartitions() {
        StressSettings s = parse("write n=270258064 cl=QUORUM -schema \"replication(factor=3)\" -mode native cql3 "
                + "-pop seq=1..270258064 -node node1,node2,node3 -rate threads=800 -log file=out.data");
        assertThat(s.command().type()).isEqualTo(Command.WRITE);
        assertThat(s.command().count()).isEqualTo(270_258_064L);
        assertThat(s.command().consistencyLevel()).isEqualTo("QUORUM");
        assertThat(s.schema().replicationOptions()).containsEntry("replication_factor", "3");
        assertThat(s.schema().replicationStrategy()).isEqualTo(SchemaSettings.SIMPLE_STRATEGY);
        assertThat(s.population().sequential()).isTrue();
        assertThat(s.population().distribution().min()).isEqualTo(1);
        assertThat(s.population().distribution().max()).isEqualTo(270_258_064L);
        assertThat(s.node().nodes()).containsExactly("node1", "node2", "node3");
        assertThat(s.rate().auto()).isFalse();
        assertThat(s.rate().threads()).isEqualTo(800);
        assertThat(s.log().file()).isEqualTo("out.data");
        assertThat(s.mode().prepared()).isTrue();
        assertThat(s.warnings()).containsExactly("Warning: ignoring deprecated parameter: native",
                "Warning: ignoring deprecated parameter: cql3");
    }

    @Test
    void shouldParseRateLimitedDurationWrite() {
        StressSettings s = parse("write duration=30m cl=QUORUM -schema \"replication(factor=3)\" -mode native cql3 "
                + "-pop seq=1..810774192 -rate threads=800 limit=5000/s -log file=lim5k.data");
        assertThat(s.command().count()).isEqualTo(-1);
        assertThat(s.command().duration()).isEqualTo(30);
        assertThat(s.command().durationUnit()).isEqualTo(TimeUnit.MINUTES);
        assertThat(s.command().durationSeconds()).isEqualTo(1800);
        assertThat(s.rate().threads()).isEqualTo(800);
        assertThat(s.rate().opsPerSecond()).isEqualTo(5000);
        assertThat(s.rate().fixed()).isFalse();
        assertThat(s.population().distribution().max()).isEqualTo(810_774_192L);
        assertThat(s.log().file()).isEqualTo("lim5k.data");
    }

    @Test
    void shouldParseGaussianRead() {
        StressSettings s = parse("read duration=20m cl=QUORUM -mode native cql3 "
                + "-pop dist=gaussian(1..810774192,405387096,10000) -rate threads=400");
        assertThat(s.command().type()).isEqualTo(Command.READ);
        assertThat(s.command().durationSeconds()).isEqualTo(1200);
        var d = s.population().distribution();
        assertThat(s.population().sequential()).isFalse();
        assertThat(d.kind()).isEqualTo(Kind.GAUSSIAN);
        assertThat(d.min()).isEqualTo(1);
        assertThat(d.max()).isEqualTo(810_774_192L);
        assertThat(d.mean()).isEqualTo(405_387_096d);
        assertThat(d.stdev()).isEqualTo(10_000d);
        assertThat(s.rate().threads()).isEqualTo(400);
    }

    @Test
    void shouldParseUniformReadWithoutWarmup() {
        StressSettings s = parse("read duration=60m no-warmup cl=QUORUM -mode native cql3 "
                + "-pop dist=uniform(1..810774192) -rate threads=10");
        assertThat(s.command().noWarmup()).isTrue();
        assertThat(s.command().durationSeconds()).isEqualTo(3600);
        assertThat(s.population().distribution().kind()).isEqualTo(Kind.UNIFORM);
        assertThat(s.population().distribution().max()).isEqualTo(810_774_192L);
        assertThat(s.rate().threads()).isEqualTo(10);
    }

    @Test
    void shouldParseBillionRowPopulateWithQuotedColumnGroup() {
        StressSettings s = parse("write no-warmup cl=QUORUM n=1000000000 -schema 'replication(factor=3)' -port jmx=6868 "
                + "-mode cql3 native -rate threads=200 -col 'size=FIXED(1024) n=FIXED(1)' -pop seq=1..1000000000");
        assertThat(s.command().count()).isEqualTo(1_000_000_000L);
        assertThat(s.command().noWarmup()).isTrue();
        assertThat(s.port().jmxPort()).isEqualTo(6868);
        assertThat(s.port().nativePort()).isEqualTo(9042);
        assertThat(s.columns().size().kind()).isEqualTo(Kind.FIXED);
        assertThat(s.columns().size().min()).isEqualTo(1024);
        assertThat(s.columns().maxColumnsPerKey()).isEqualTo(1);
        assertThat(s.columns().names()).containsExactly("C0");
        assertThat(s.rate().threads()).isEqualTo(200);
    }

    @Test
    void shouldParseLimitedGaussReadIgnoringErrors() {
        StressSettings s = parse("read no-warmup cl=QUORUM duration=100m -schema keyspace=keyspace1 'replication(factor=3)' "
                + "-port jmx=6868 -mode cql3 native -rate 'threads=150 limit=20000/s' -errors ignore "
                + "-col 'size=FIXED(1024) n=FIXED(1)' -pop 'dist=gauss(1..750000000,500000000,250000000)'");
        assertThat(s.command().durationSeconds()).isEqualTo(6000);
        assertThat(s.schema().keyspace()).isEqualTo("keyspace1");
        assertThat(s.schema().replicationOptions()).containsEntry("replication_factor", "3");
        assertThat(s.rate().threads()).isEqualTo(150);
        assertThat(s.rate().opsPerSecond()).isEqualTo(20_000);
        assertThat(s.errors().ignore()).isTrue();
        assertThat(s.errors().tries()).isEqualTo(10);
        var d = s.population().distribution();
        assertThat(d.kind()).isEqualTo(Kind.GAUSSIAN);
        assertThat(d.mean()).isEqualTo(500_000_000d);
        assertThat(d.stdev()).isEqualTo(250_000_000d);
    }

    @Test
    void shouldParseTheSampleRunsMixedCommandLine() {
        StressSettings s = parse("mixed \"ratio(write=1,read=3)\" duration=60s cl=ONE -mode native cql3 -rate threads=50 "
                + "-pop \"dist=uniform(1..200000)\" -node 127.0.0.3 -port native=9042 jmx=7499");
        assertThat(s.command().type()).isEqualTo(Command.MIXED);
        assertThat(s.command().ratios()).isEqualTo(Map.of(Command.READ, 3.0, Command.WRITE, 1.0));
        assertThat(s.command().ratios().toString()).isEqualTo("{READ=3.0, WRITE=1.0}");
        assertThat(s.command().clustering().toString()).isEqualTo("gaussian(1..10)");
        assertThat(s.command().consistencyLevel()).isEqualTo("ONE");
        assertThat(s.node().nodes()).containsExactly("127.0.0.3");
        assertThat(s.port().nativePort()).isEqualTo(9042);
        assertThat(s.port().jmxPort()).isEqualTo(7499);
        assertThat(s.population().distribution().display()).isEqualTo("Uniform:  min=1,max=200000");
        assertThat(s.columns().size().display()).isEqualTo("Fixed:  key=34");
        assertThat(s.columns().names()).containsExactly("C0", "C1", "C2", "C3", "C4");
    }

    @Test
    void shouldApplyCassandraStressDefaults() {
        StressSettings w = parse("write n=1000");
        assertThat(w.rate()).isEqualTo(RateSettings.threads(200));
        assertThat(w.population().distribution().toString()).isEqualTo("seq(1..1000)");
        assertThat(w.command().consistencyLevel()).isEqualTo("LOCAL_ONE");
        assertThat(w.command().truncate()).isEqualTo(CommandSettings.Truncate.NEVER);
        assertThat(w.schema().keyspace()).isEqualTo("keyspace1");
        assertThat(w.node().nodes()).containsExactly("localhost");
        assertThat(w.log().intervalMillis()).isEqualTo(1000);
        assertThat(w.mode().connectionsPerHost()).isEqualTo(8);
        assertThat(w.mode().maxPendingPerConnection()).isEqualTo(128);
        StressSettings r = parse("read");
        assertThat(r.command().untilConverged()).isTrue();
        assertThat(r.command().targetUncertainty()).isEqualTo(0.02);
        assertThat(r.rate().auto()).isTrue();
        assertThat(r.rate().minThreads()).isEqualTo(4);
        assertThat(r.rate().maxThreads()).isEqualTo(1000);
        assertThat(r.population().distribution().display())
                .isEqualTo("Gaussian:  min=1,max=1000000,mean=500000.500000,stdev=166666.500000");
    }

    @Test
    void shouldParseEveryOptionOfTheHelpText() {
        StressSettings s = parse("counter_write err<0.05 n>10 n<100 truncate=once cl=local_quorum "
                + "-pop seq=1..1M no-wrap read-lookback=uniform(1..10) contents=SORTED "
                + "-insert revisit=uniform(1..100) visits=fixed(2) partitions=fixed(1) batchtype=UNLOGGED "
                + "select-ratio=fixed(1)/10 row-population-ratio=~exp(1..10)/10 "
                + "-col names=a,b,c slice super=0 comparator=AsciiType timestamp=12345 size=uniform(10..20) "
                + "-rate threads>=8 threads<=64 auto "
                + "-mode user=u password=p port=9043 auth-provider=x.Y maxPending=256 compression=lz4 "
                + "connectionsPerHost=2 unprepared protocolVersion=4 "
                + "-errors retries=3 skip-read-validation "
                + "-node datacenter=dc1 whitelist a:9999,b "
                + "-log level=verbose no-summary file=f.log hdrfile=f.hdr interval=500ms no-settings "
                + "-transport truststore=t.jks truststore-password=tp keystore=k.jks keystore-password=kp "
                + "ssl-protocol=TLSv1.3 ssl-alg=SunX509 ssl-ciphers=A,B "
                + "-jmx user=ju password=jp -graph file=g.html revision=r1 title=T op=OP "
                + "-tokenrange wrap split-factor=4 -reporting output-frequency=2s header-frequency=10s "
                + "-schema replication(strategy=NetworkTopologyStrategy dc1=3) keyspace=ks "
                + "compaction(strategy=LeveledCompactionStrategy sstable_size_in_mb=160) compression=LZ4Compressor");
        assertThat(s.command().type()).isEqualTo(Command.COUNTER_WRITE);
        assertThat(s.command().targetUncertainty()).isEqualTo(0.05);
        assertThat(s.command().minUncertaintyMeasurements()).isEqualTo(10);
        assertThat(s.command().maxUncertaintyMeasurements()).isEqualTo(100);
        assertThat(s.command().truncate()).isEqualTo(CommandSettings.Truncate.ONCE);
        assertThat(s.command().consistencyLevel()).isEqualTo("LOCAL_QUORUM");
        assertThat(s.population().wrap()).isFalse();
        assertThat(s.population().distribution().max()).isEqualTo(1_000_000);
        assertThat(s.population().readLookback().kind()).isEqualTo(Kind.UNIFORM);
        assertThat(s.population().order()).isEqualTo("SORTED");
        assertThat(s.insert().visits().min()).isEqualTo(2);
        assertThat(s.insert().batchType()).isEqualTo("UNLOGGED");
        assertThat(s.insert().selectRatio().divisor()).isEqualTo(10);
        assertThat(s.insert().rowPopulationRatio().distribution().inverted()).isTrue();
        assertThat(s.columns().names()).containsExactly("a", "b", "c");
        assertThat(s.columns().slice()).isTrue();
        assertThat(s.columns().timestamp()).isEqualTo("12345");
        assertThat(s.columns().size().kind()).isEqualTo(Kind.UNIFORM);
        assertThat(s.rate().auto()).isTrue();
        assertThat(s.rate().minThreads()).isEqualTo(8);
        assertThat(s.rate().maxThreads()).isEqualTo(64);
        assertThat(s.rate().autoStopOnSaturation()).isTrue();
        assertThat(s.mode().user()).isEqualTo("u");
        assertThat(s.mode().password()).isEqualTo("p");
        assertThat(s.mode().maxPendingPerConnection()).isEqualTo(256);
        assertThat(s.mode().compression()).isEqualTo("lz4");
        assertThat(s.mode().connectionsPerHost()).isEqualTo(2);
        assertThat(s.mode().prepared()).isFalse();
        assertThat(s.mode().protocolVersion()).isEqualTo(4);
        assertThat(s.port().nativePort()).isEqualTo(9043);
        assertThat(s.errors().tries()).isEqualTo(4);
        assertThat(s.errors().skipReadValidation()).isTrue();
        assertThat(s.node().datacenter()).isEqualTo("dc1");
        assertThat(s.node().whitelist()).isTrue();
        assertThat(s.node().nodes()).containsExactly("a:9999", "b");
        assertThat(s.log().level()).isEqualTo("VERBOSE");
        assertThat(s.log().noSummary()).isTrue();
        assertThat(s.log().noSettings()).isTrue();
        assertThat(s.log().hdrFile()).isEqualTo("f.hdr");
        assertThat(s.log().intervalMillis()).isEqualTo(500);
        assertThat(s.transport().ssl()).isTrue();
        assertThat(s.transport().protocol()).isEqualTo("TLSv1.3");
        assertThat(s.transport().ciphers()).containsExactly("A", "B");
        assertThat(s.misc().jmxUser()).isEqualTo("ju");
        assertThat(s.misc().tokenRangeSplitFactor()).isEqualTo(4);
        assertThat(s.misc().outputFrequencyMillis()).isEqualTo(2000);
        assertThat(s.misc().headerFrequencyMillis()).isEqualTo(10_000L);
        assertThat(s.graph()).isEqualTo(new GraphSettings("g.html", "r1", "T", "OP"));
        assertThat(s.schema().keyspace()).isEqualTo("ks");
        assertThat(s.schema().replicationStrategy()).isEqualTo("NetworkTopologyStrategy");
        assertThat(s.schema().replicationOptions()).isEqualTo(Map.of("dc1", "3"));
        assertThat(s.schema().compactionStrategy()).isEqualTo("LeveledCompactionStrategy");
        assertThat(s.schema().compactionOptions()).isEqualTo(Map.of("sstable_size_in_mb", "160"));
        assertThat(s.schema().compression()).isEqualTo("LZ4Compressor");
    }

    @Test
    void shouldParseFixedRateAndHelpExamples() {
        StressSettings f = parse("write n=100 -rate threads=4 fixed=1000/s");
        assertThat(f.rate().fixed()).isTrue();
        assertThat(f.rate().opsPerSecond()).isEqualTo(1000);
        StressSettings t = parse("write n=100 -rate threads=4 throttle=300/s");
        assertThat(t.rate().opsPerSecond()).isEqualTo(300);
        assertThat(t.rate().fixed()).isFalse();
        // help mixed: "e.g. (read=2,write=1) will perform 2 reads for each write"
        assertThat(parse("mixed ratio(read=2,write=1) n=10").command().ratios())
                .isEqualTo(Map.of(Command.READ, 2.0, Command.WRITE, 1.0));
        // help: "~exp(1..10) will yield 10 most, instead of least, often"
        assertThat(parse("mixed n=10 clustering=~exp(1..10)").command().clustering().inverted()).isTrue();
        // help user: "ops(insert=2,<query1>=1)"
        StressSettings u = parse("user profile=p.yaml,q.yaml ops(insert=2,query1=1) n=10");
        assertThat(u.command().profiles()).containsExactly("p.yaml", "q.yaml");
        assertThat(u.command().ops()).containsExactly(Map.entry("insert", 2.0), Map.entry("query1", 1.0));
        StressSettings help = parse("help -rate");
        assertThat(help.command().type()).isEqualTo(Command.HELP);
        assertThat(help.helpTopic()).isEqualTo("-rate");
        assertThat(parse("print dist=exp(1..10)").printSpec()).isEqualTo("exp(1..10)");
        assertThat(parse("counterwrite n=5").command().type()).isEqualTo(Command.COUNTER_WRITE);
        assertThat(parse("write n=5 -credentials-file creds.properties").misc().credentialsFile()).isEqualTo("creds.properties");
        assertThat(parse("write n=5 -sendto host1").warnings()).hasSize(1);
    }

    @Test
    void shouldRejectBadOptionsLikeCassandraStress() {
        assertError("write n=10 duration=5s", "Invalid write options provided, see output for valid options", "write");
        assertError("write n=10 bogus", "Invalid write options provided, see output for valid options", "write");
        assertError("write n=10 -rate threads=x", "Invalid value x; must match pattern [0-9]+", null);
        assertError("write n=10 -rate threads=4 threads>=2", "Invalid -rate options provided, see output for valid options", "-rate");
        assertError("write n=10 -rate threads=4 limit=5000", "Invalid value 5000; must match pattern [0-9]+/s", null);
        assertError("write n=10 cl=FOO", "Invalid value FOO; must match pattern " + CommandSettings.CL_PATTERN, null);
        assertError("write n=10 -pop dist=bogus(1..2)", "Illegal distribution type: bogus", "-pop");
        assertError("write n=10 -pop dist=uniform(1..2,3)", "Invalid parameter list for uniform distribution: [1..2, 3]", "-pop");
        assertError("write n=10 -pop seq=1..10 dist=uniform(1..2)", "Invalid -pop options provided, see output for valid options", "-pop");
        assertError("write n=10 -foo bar", "Error processing command line arguments. The following were ignored: -foo bar", "");
        assertError("frobnicate n=10", "Unrecognised command: frobnicate", "");
        assertError("-rate threads=1", "No command provided", "");
        assertError("user n=10", "Invalid user options provided, see output for valid options", "user");
        assertError("mixed n=10 ratio(read=1,bogus=2)", "Invalid mixed options provided, see output for valid options", "mixed");
        assertError("write n=10 -graph title=x", "Invalid -graph options provided, see output for valid options", "-graph");
        assertError("write n=10 -mode prepared unprepared", "Invalid -mode options provided, see output for valid options", "-mode");
        assertError("write n=10 -log interval=fast", "Invalid value fast; must match pattern [0-9]+(ms|s)?", null);
        assertError("write n=10 duration=5x".replace("n=10 ", ""), "Invalid value 5x; must match pattern [0-9]+[smhd]", null);
    }

    private static void assertError(String line, String message, String helpFor) {
        assertThatThrownBy(() -> parse(line))
                .isInstanceOf(SettingsException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((SettingsException) e).helpFor()).isEqualTo(helpFor));
    }

    @Test
    void shouldSplitParametersAtSpacesOutsideParentheses() {
        assertThat(StressSettings.tokenize(List.of("threads=150 limit=20000/s", "replication(factor=3 strategy=X)")))
                .containsExactly("threads=150", "limit=20000/s", "replication(factor=3 strategy=X)");
        assertThat(StressSettings.tokenize(List.of("compaction(strategy=X", "a=1)", "keyspace=k")))
                .containsExactly("compaction(strategy=X a=1)", "keyspace=k");
    }
}
