package io.charybdis.cluster.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.cluster.streaming.TokenRange;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MerkleTreeTest {
    @Test
    void treesOfTheSamePartitionsAddedInAnyOrderAreEqual() {
        TokenRange r = new TokenRange(-1000, 1000);
        MerkleTree a = new MerkleTree(r, 6);
        MerkleTree b = new MerkleTree(r, 6);
        for (int i = -999; i <= 1000; i += 7) {
            a.add(i, ("p" + i).getBytes());
        }
        for (int i = 1000; i >= -999; i--) {
            if ((i + 999) % 7 == 0) {
                b.add(i, ("p" + i).getBytes());
            }
        }
        assertThat(a.root()).isEqualTo(b.root());
        assertThat(MerkleTree.differences(a, b)).isEmpty();
    }

    @Test
    void differencesNameTheLeavesThatDifferMergedWhenAdjacent() {
        TokenRange r = new TokenRange(0, 1024);
        MerkleTree a = new MerkleTree(r, 4); // leaves of 64 tokens: (0, 64], (64, 128], ...
        MerkleTree b = new MerkleTree(r, 4);
        for (int t = 1; t <= 1024; t += 5) {
            a.add(t, new byte[] {(byte) t});
            b.add(t, new byte[] {(byte) t});
        }
        a.add(100, new byte[] {1}); // leaf 1
        b.add(130, new byte[] {2}); // leaf 2
        b.add(1000, new byte[] {3}); // leaf 15
        List<TokenRange> d = MerkleTree.differences(a, b);
        assertThat(d).containsExactly(new TokenRange(64, 192), new TokenRange(960, 1024));
    }

    @Test
    void leavesCoverAWrappingRangeExactly() {
        TokenRange r = new TokenRange(Long.MAX_VALUE - 100, Long.MIN_VALUE + 100);
        MerkleTree t = new MerkleTree(r, MerkleTree.depthFor(r, 10));
        assertThat(t.depth()).isEqualTo(7); // 201 tokens wide
        long previous = r.left();
        for (int i = 0; i < (1 << t.depth()); i++) {
            TokenRange leaf = t.leafRange(i);
            assertThat(leaf.left()).isEqualTo(previous);
            previous = leaf.right();
        }
        assertThat(previous).isEqualTo(r.right());
        Random random = new Random(1);
        for (int i = 0; i < 1000; i++) {
            long token = r.left() + 1 + random.nextInt(201);
            assertThat(t.leafRange(t.leafOf(token)).contains(token)).isTrue();
        }
    }
}
