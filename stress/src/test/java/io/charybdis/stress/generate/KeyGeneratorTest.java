package io.charybdis.stress.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyGeneratorTest {

    @Test
    void shouldMatchMurmurHash3ReferenceVectors() {
        assertThat(MurmurHash3.hash64("hello".getBytes(StandardCharsets.UTF_8), 0)).isEqualTo(0xcbd8a7b341bd9b02L);
        assertThat(MurmurHash3.hash64("The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.UTF_8), 0))
                .isEqualTo(0xe34bbc7bbc071b6cL);
        assertThat(MurmurHash3.hash64(new byte[0], 0)).isEqualTo(0L);
    }

    @Test
    void shouldMakeTenCharacterKeysOfTheCassandraStressAlphabet() {
        KeyGenerator g = new KeyGenerator(10);
        for (long seed = 1; seed <= 1000; seed++) {
            byte[] k = g.key(seed);
            assertThat(k).hasSize(10);
            for (byte b : k) {
                assertThat((char) b).matches(c -> (c >= '0' && c <= '9') || (c >= 'A' && c <= 'P'));
            }
        }
    }

    @Test
    void shouldBeDeterministicAndDistinct() {
        KeyGenerator a = new KeyGenerator(10);
        KeyGenerator b = new KeyGenerator(10);
        Set<String> seen = new HashSet<>();
        for (long seed = 1; seed <= 100_000; seed++) {
            byte[] k = a.key(seed);
            assertThat(b.key(seed)).isEqualTo(k);
            seen.add(new String(k, StandardCharsets.US_ASCII));
        }
        assertThat(seen).hasSize(100_000);
    }

    @Test
    void shouldMakeLongerKeysSixteenCharactersPerDraw() {
        byte[] k = new KeyGenerator(40).key(7);
        assertThat(k).hasSize(40);
        assertThat(new String(k, 0, 10, StandardCharsets.US_ASCII))
                .isEqualTo(new String(new KeyGenerator(10).key(7), StandardCharsets.US_ASCII));
    }

    @Test
    void shouldMakeValuesOfTheConfiguredSize() {
        ValueGenerator v = new ValueGenerator(io.charybdis.stress.dist.DistributionSpec.parse("fixed(1024)"));
        assertThat(v.value(1, 0).remaining()).isEqualTo(1024);
        assertThat(v.value(1, 0)).isEqualTo(v.value(1, 0));
        assertThat(v.value(1, 0)).isNotEqualTo(v.value(1, 1));
        ValueGenerator u = new ValueGenerator(io.charybdis.stress.dist.DistributionSpec.parse("uniform(10..20)"));
        for (int s = 0; s < 100; s++) {
            assertThat(u.value(s, 0).remaining()).isBetween(10, 20);
        }
    }
}
