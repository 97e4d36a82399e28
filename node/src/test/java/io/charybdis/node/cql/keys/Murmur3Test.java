package io.charybdis.node.cql.keys;

import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3TokenFactory;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Murmur3TokenTest {

    @Test
    void shouldComputeTheSameTokensAsTheJavaDriver() {
        Murmur3TokenFactory driver = new Murmur3TokenFactory();
        Random random = new Random(42);
        for (int len = 0; len < 70; len++) {
            for (int round = 0; round < 20; round++) {
                byte[] key = new byte[len];
                random.nextBytes(key);
                long expected = ((Murmur3Token) driver.hash(ByteBuffer.wrap(key))).getValue();
                assertThat(Murmur3.token(key)).as("key length %d", len).isEqualTo(expected);
            }
        }
    }

    @Test
    void shouldHashIntKeyLikeCassandra() {
        // token(1) for an int partition key, as printed by Cassandra's SELECT token(k)
        assertThat(Murmur3.token(ByteBuffer.allocate(4).putInt(0, 1))).isEqualTo(-4069959284402364209L);
    }
}
