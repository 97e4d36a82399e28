package io.charybdis.node.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.config.AuthorizerType;
import io.charybdis.node.config.NodeConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMX logins against the roles ({@code jmx_login_config: CassandraLogin}) and MBean permissions enforced
 * ({@code jmx_authorizer: org.apache.cassandra.auth.jmx.AuthorizationProxy}), driven by Apache Cassandra 5.0.6's own
 * nodetool as a separate process with {@code -u}/{@code -pw}: a superuser may do everything, a wrong password and no
 * credentials are refused, a role may read what it holds SELECT on (on ALL MBEANS, or on a pattern through a role
 * granted to it) and may run an operation only once it holds EXECUTE on that MBean; the auth caches are managed with
 * nodetool's invalidate*cache and get/setauthcacheconfig.
 */
@Timeout(600)
class JmxRolesTest {
    static final Path NODETOOL = io.charybdis.node.testing.ApacheNodetool.NODETOOL;

    @TempDir
    Path dir;

    CharybdisNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    static Path jdk17() {
        return io.charybdis.node.testing.ApacheNodetool.jdk17();
    }

    record Result(int exit, String output) {
    }

    Result nodetool(Path jdk, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(NODETOOL.toString(), "-h", node.jmx().host(), "-p",
                String.valueOf(node.jmx().port())));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", jdk.toString());
        pb.environment().put("PATH", jdk.resolve("bin") + ":" + System.getenv("PATH"));
        Path log = Files.createTempFile(dir, "nodetool", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println("nodetool " + String.join(" ", args) + " -> " + p.exitValue() + ":\n" + output);
        return new Result(p.exitValue(), output);
    }

    @Test
    void nodetoolLogsInAsARoleAndHoldsItsMBeanPermissions() throws Exception {
        Path jdk = jdk17();
        Assumptions.assumeTrue(jdk != null && Files.isExecutable(NODETOOL),
                "no JDK 17 or no Apache Cassandra nodetool (" + NODETOOL + ")");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir.resolve("node")).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(1).authenticator(AuthenticatorType.PASSWORD)
                .authorizer(AuthorizerType.CASSANDRA).jmxLoginConfig(NodeConfig.JMX_LOGIN_CONFIG)
                .jmxAuthorizer(NodeConfig.JMX_AUTHORIZER).build());
        try (CqlSession s = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").withAuthCredentials("cassandra", "cassandra").build()) {
            s.execute("CREATE ROLE ops WITH PASSWORD = 'ops_pw' AND LOGIN = true");
            s.execute("CREATE ROLE nologin WITH PASSWORD = 'x' AND LOGIN = false");
            s.execute("GRANT SELECT ON ALL MBEANS TO ops");
            s.execute("GRANT DESCRIBE ON ALL MBEANS TO ops");
            // a pattern, through a role granted to a role
            s.execute("CREATE ROLE db_reader");
            s.execute("GRANT DESCRIBE ON ALL MBEANS TO db_reader"); // nodetool's connection checks instance types
            s.execute("GRANT SELECT ON MBEANS 'org.apache.cassandra.db:type=*' TO db_reader");
            s.execute("CREATE ROLE reader WITH PASSWORD = 'reader_pw' AND LOGIN = true");
            s.execute("GRANT db_reader TO reader");
        }

        Result su = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "flush");
        assertThat(su.exit()).as(su.output()).isZero();
        Result info = nodetool(jdk, "-u", "ops", "-pw", "ops_pw", "version");
        assertThat(info.exit()).as(info.output()).isZero();
        assertThat(info.output()).contains("ReleaseVersion: 5.0");

        Result reader = nodetool(jdk, "-u", "reader", "-pw", "reader_pw", "version");
        assertThat(reader.exit()).as(reader.output()).isZero();
        assertThat(reader.output()).contains("ReleaseVersion: 5.0");
        Result readerInfo = nodetool(jdk, "-u", "reader", "-pw", "reader_pw", "info"); // reads java.lang beans too
        assertThat(readerInfo.exit()).as(readerInfo.output()).isNotZero();
        assertThat(readerInfo.output()).contains("Access Denied");

        Result wrong = nodetool(jdk, "-u", "ops", "-pw", "wrong", "version");
        assertThat(wrong.exit()).isNotZero();
        assertThat(wrong.output()).contains("Provided username ops and/or password are incorrect");
        Result anonymous = nodetool(jdk, "version");
        assertThat(anonymous.exit()).isNotZero();
        assertThat(anonymous.output()).contains("Credentials required");
        Result noLogin = nodetool(jdk, "-u", "nologin", "-pw", "x", "version");
        assertThat(noLogin.exit()).isNotZero();
        assertThat(noLogin.output()).contains("nologin is not permitted to log in");

        Result refused = nodetool(jdk, "-u", "ops", "-pw", "ops_pw", "flush");
        assertThat(refused.exit()).as(refused.output()).isNotZero();
        assertThat(refused.output()).contains("Access Denied");
        try (CqlSession s = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").withAuthCredentials("cassandra", "cassandra").build()) {
            s.execute("GRANT EXECUTE ON MBEAN 'org.apache.cassandra.db:type=StorageService' TO ops");
        }
        Result allowed = nodetool(jdk, "-u", "ops", "-pw", "ops_pw", "flush");
        assertThat(allowed.exit()).as(allowed.output()).isZero();

        // the auth caches, as nodetool manages them
        for (String command : List.of("invalidatecredentialscache", "invalidaterolescache",
                "invalidatepermissionscache", "invalidatenetworkpermissionscache", "invalidatejmxpermissionscache")) {
            Result r = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", command);
            assertThat(r.exit()).as(command + ": " + r.output()).isZero();
        }
        Result ops = nodetool(jdk, "-u", "ops", "-pw", "ops_pw", "invalidaterolescache");
        assertThat(ops.exit()).as("ops holds no EXECUTE on RolesCache: " + ops.output()).isNotZero();
        Result set = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "setauthcacheconfig", "--cache-name",
                "RolesCache", "--validity-period", "3000", "--max-entries", "500");
        assertThat(set.exit()).as(set.output()).isZero();
        assertThat(set.output()).contains("Changed Validity Period to 3000").contains("Changed Max Entries to 500");
        Result get = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "getauthcacheconfig", "--cache-name",
                "PermissionsCache");
        assertThat(get.exit()).as(get.output()).isZero();
        assertThat(get.output()).contains("Validity Period: 3000").contains("Max Entries: 500")
                .contains("Active Update: false");
        // CIDR groups, which ACCESS FROM CIDRS names (kept in system_auth.cidr_groups; AllowAllCIDRAuthorizer)
        assertThat(nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "updatecidrgroup", "region1", "10.0.0.1/8",
                "192.168.1.0/24").exit()).isZero();
        Result bad = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "updatecidrgroup", "region2", "10.0.0.0/33");
        assertThat(bad.exit()).isNotZero();
        assertThat(bad.output()).contains("10.0.0.0/33 is not a valid CIDR String");
        assertThat(nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "listcidrgroups").output())
                .contains("region1").doesNotContain("region2");
        assertThat(nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "listcidrgroups", "region1").output())
                .contains("10.0.0.0/8").contains("192.168.1.0/24");
        try (CqlSession s = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").withAuthCredentials("cassandra", "cassandra").build()) {
            s.execute("CREATE ROLE from_region1 WITH ACCESS FROM CIDRS {'region1'}");
            assertThat(s.execute("SELECT cidr_groups FROM system_auth.cidr_permissions WHERE role = 'from_region1'")
                    .one().getSet("cidr_groups", String.class)).containsExactly("region1");
        }
        Result dropMissing = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "dropcidrgroup", "nosuch");
        assertThat(dropMissing.exit()).isNotZero();
        assertThat(dropMissing.output()).contains("error: CIDR group 'nosuch' doesn't exists");
        Result drop = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "dropcidrgroup", "region1");
        assertThat(drop.exit()).as(drop.output()).isZero();
        assertThat(drop.output()).contains("Deleted CIDR group region1");
        Result invalidateCidr = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "invalidatecidrpermissionscache");
        assertThat(invalidateCidr.exit()).isNotZero();
        assertThat(invalidateCidr.output())
                .contains("Invalidate CIDR permissions cache operation not supported by AllowAllCIDRAuthorizer");

        Result credentials = nodetool(jdk, "-u", "cassandra", "-pw", "cassandra", "setauthcacheconfig",
                "--cache-name", "CredentialsCache", "--validity-period", "3000");
        assertThat(credentials.exit()).isNotZero();
        assertThat(credentials.output()).contains("credentials are not cached");
    }
}
