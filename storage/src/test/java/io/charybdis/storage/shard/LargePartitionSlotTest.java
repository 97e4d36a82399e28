package io.charybdis.storage.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.TableId;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.read.ReadCommand;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The large-partition slot: what it keeps, when it answers, and that its off-heap memory is given back. */
class LargePartitionSlotTest {
    private static final TableId T = new TableId(UUID.randomUUID());

    private static ReadCommand command(TableId t, long token, byte[] key) {
        return ReadCommand.partition(t, token, key).build();
    }

    /** A part of {@code size} bytes (its content is not read by the slot). */
    private static byte[] part(int size) {
        return new byte[size];
    }

    @Test
    void keepsOnlyLargePartitionsWithinItsRoomAndFreesThem() {
        ShardAllocator allocator = new ShardAllocator(0);
        LargePartitionSlot slot = new LargePartitionSlot(allocator);
        ReadCommand c = command(T, 42, new byte[] {1, 2});
        slot.keep(c, List.of(), List.of(part(1000)), 1L << 30);
        assertThat(slot.views(c, List.of())).as("small: read again each time").isNull();
        assertThat(allocator.allocatedBytes()).isZero();

        slot.keep(c, List.of(), List.of(part(600_000), part(600_000)), 1L << 30);
        assertThat(slot.bytes()).isEqualTo(1_200_000);
        assertThat(allocator.allocatedBytes()).isEqualTo(1_200_000);
        assertThat(slot.views(c, List.of())).hasSize(2);
        assertThat(slot.views(command(T, 42, new byte[] {1, 3}), List.of())).as("another key").isNull();
        assertThat(slot.views(command(T, 43, new byte[] {1, 2}), List.of())).as("another token").isNull();
        assertThat(slot.views(command(new TableId(UUID.randomUUID()), 42, new byte[] {1, 2}), List.of()))
                .as("another table").isNull();

        slot.keep(c, List.of(), List.of(part(10)), 1L << 30);
        assertThat(slot.views(c, List.of())).as("a small read leaves the large partition kept").hasSize(2);

        slot.forget(new TableId(UUID.randomUUID()));
        assertThat(slot.bytes()).isEqualTo(1_200_000);
        slot.forget(T);
        assertThat(slot.views(c, List.of())).isNull();
        assertThat(allocator.allocatedBytes()).isZero();
        assertThat(allocator.liveAllocations()).isZero();

        slot.keep(c, List.of(), List.of(part(2_000_000)), 3_000_000);
        assertThat(slot.bytes()).as("more than half the room: not kept").isZero();
        slot.keep(c, List.of(), List.of(part(1_200_000)), 3_000_000);
        assertThat(slot.bytes()).isEqualTo(1_200_000);
        slot.keep(c, List.of(), List.of(part(1_100_000)), 1L << 30);
        assertThat(slot.bytes()).as("another large one replaces it").isEqualTo(1_100_000);
        assertThat(allocator.liveAllocations()).isEqualTo(1);
        slot.clear();
        assertThat(allocator.allocatedBytes()).isZero();
        assertThat(allocator.liveAllocations()).isZero();
    }
}
