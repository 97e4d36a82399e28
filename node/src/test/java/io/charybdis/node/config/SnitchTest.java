package io.charybdis.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnitchTest {
    @TempDir
    Path dir;

    @Test
    void simpleSnitchPlacesEveryNodeInDatacenter1Rack1() {
        Snitch s = Snitch.of(NodeConfig.builder().baseDirectory(dir).build());
        assertThat(s.datacenter()).isEqualTo("datacenter1");
        assertThat(s.rack()).isEqualTo("rack1");
        assertThat(s.className()).isEqualTo("org.apache.cassandra.locator.SimpleSnitch");
    }

    @Test
    void gossipingPropertyFileSnitchReadsTheRackdcFileNextToTheYamlOrInConf() throws Exception {
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/cassandra-rackdc.properties"), "dc=east\nrack=r2\ndc_suffix=-a\n");
        Snitch s = Snitch.of(NodeConfig.builder().baseDirectory(dir)
                .endpointSnitch("org.apache.cassandra.locator.GossipingPropertyFileSnitch").build());
        assertThat(s.datacenter()).isEqualTo("east-a");
        assertThat(s.rack()).isEqualTo("r2");

        Path etc = Files.createDirectories(dir.resolve("etc"));
        Files.writeString(etc.resolve("cassandra-rackdc.properties"), "dc=west\nrack=r9\n");
        Snitch next = Snitch.of(NodeConfig.builder().baseDirectory(dir).configDirectory(etc)
                .endpointSnitch("GossipingPropertyFileSnitch").build());
        assertThat(next.datacenter() + "/" + next.rack()).isEqualTo("west/r9");
    }

    @Test
    void aMissingFileOrKeyOrAnUnsupportedSnitchStopsStartupNamingTheKey() throws Exception {
        assertThatThrownBy(() -> Snitch.of(NodeConfig.builder().baseDirectory(dir)
                .endpointSnitch("GossipingPropertyFileSnitch").build()))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("endpoint_snitch")
                .hasMessageContaining("cassandra-rackdc.properties");
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/cassandra-rackdc.properties"), "dc=east\n");
        assertThatThrownBy(() -> Snitch.of(NodeConfig.builder().baseDirectory(dir)
                .endpointSnitch("GossipingPropertyFileSnitch").build()))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("DC or rack not found");
        assertThatThrownBy(() -> Snitch.of(NodeConfig.builder().baseDirectory(dir).endpointSnitch("Ec2Snitch").build()))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("endpoint_snitch: Ec2Snitch");
    }
}
