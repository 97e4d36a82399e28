package io.charybdis.storage.sstable;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

class GoldenWriterTest {
    @Test
    @EnabledIfSystemProperty(named = "charybdis.golden.out", matches = ".+")
    void write() throws Exception {
        Path out = Path.of(System.getProperty("charybdis.golden.out"));
        Files.createDirectories(out);
        SampleSSTable.write(out, 1);
        for (var m : SampleSSTable.partitions()) {
            System.out.println("partition length=" + m.buffer().getInt(m.partitionOffset()));
        }
    }
}
