package io.charybdis.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.node.config.NodeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

    @TempDir
    Path home;

    @Test
    void shouldParseTheCommandLine() {
        Main.CommandLine cl = Main.CommandLine.parse("-f", "--config", "/etc/c.yaml", "--smp", "3");

        assertThat(cl.config()).isEqualTo("/etc/c.yaml");
        assertThat(cl.smp()).isEqualTo(3);
        assertThat(Main.CommandLine.parse("--smp=2", "--config=x.yaml").smp()).isEqualTo(2);
        assertThat(Main.CommandLine.parse().smp()).isNull();
        assertThat(Main.CommandLine.parse("--version").version()).isTrue();
    }

    @Test
    void shouldRejectBadArguments() {
        assertThatThrownBy(() -> Main.CommandLine.parse("--smp")).hasMessage("--smp needs a value");
        assertThatThrownBy(() -> Main.CommandLine.parse("--smp", "many")).hasMessageContaining("'many'");
        assertThatThrownBy(() -> Main.CommandLine.parse("--smp", "0")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> Main.CommandLine.parse("--bogus")).hasMessage("unknown argument '--bogus'");
    }

    @Test
    void shouldLetSmpOnTheCommandLineWinOverEveryOtherSource() throws IOException {
        Path file = Files.writeString(home.resolve("c.yaml"), "smp: 1\n");
        Properties props = new Properties();
        props.setProperty("charybdis.home", home.toString());
        props.setProperty("charybdis.smp", "2");

        NodeConfig c = Main.loadConfig(Main.CommandLine.parse("--config", file.toString(), "--smp", "5"),
                Map.of("CHARYBDIS_SMP", "3"), props);

        assertThat(c.smp()).isEqualTo(5);
    }

    @Test
    void shouldFindTheConfigurationFileInOrder() throws IOException {
        Properties props = new Properties();
        props.setProperty("charybdis.home", home.toString());
        Main.CommandLine none = Main.CommandLine.parse();

        assertThat(Main.configFile(none, Map.of(), props)).isNull();
        Path inHome = home.resolve("conf/charybdis.yaml");
        Files.createDirectories(inHome.getParent());
        Files.writeString(inHome, "");
        assertThat(Main.configFile(none, Map.of(), props)).isEqualTo(inHome);
        assertThat(Main.configFile(none, Map.of("CHARYBDIS_CONF", "/env.yaml"), props)).isEqualTo(Path.of("/env.yaml"));
        props.setProperty("charybdis.config", "/prop.yaml");
        assertThat(Main.configFile(none, Map.of("CHARYBDIS_CONF", "/env.yaml"), props)).isEqualTo(Path.of("/prop.yaml"));
        assertThat(Main.configFile(Main.CommandLine.parse("--config", "/cli.yaml"), Map.of(), props))
                .isEqualTo(Path.of("/cli.yaml"));
    }
}
