package io.charybdis.node.auth;

import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AuthResourceTest {

    @Test
    void shouldNameResourcesAsCassandraStoresAndShowsThem() {
        assertThat(AuthResource.ALL_KEYSPACES.name()).isEqualTo("data");
        assertThat(AuthResource.table("ks", "t").name()).isEqualTo("data/ks/t");
        assertThat(AuthResource.table("ks", "t")).hasToString("<table ks.t>");
        assertThat(AuthResource.allTables("ks")).hasToString("<all tables in ks>");
        assertThat(AuthResource.role("r").name()).isEqualTo("roles/r");
        assertThat(AuthResource.keyspaceFunctions("ks").name()).isEqualTo("functions/ks");
        assertThat(AuthResource.mbean("org.apache.cassandra.db:type=StorageService"))
                .hasToString("<mbean org.apache.cassandra.db:type=StorageService>");
        assertThat(AuthResource.function("ks", "f", List.of("int", "text")))
                .hasToString("<function ks.f(int, text)>");
    }

    @Test
    void shouldParseEveryStoredNameBack() {
        for (AuthResource r : List.of(AuthResource.ALL_KEYSPACES, AuthResource.keyspace("ks"),
                AuthResource.allTables("ks"), AuthResource.table("ks", "t"), AuthResource.ALL_ROLES,
                AuthResource.role("a/b"), AuthResource.ALL_FUNCTIONS, AuthResource.keyspaceFunctions("ks"),
                AuthResource.function("ks", "f", List.of("int")), AuthResource.ALL_MBEANS,
                AuthResource.mbean("org.apache.cassandra.metrics:*"))) {
            assertThat(AuthResource.fromName(r.name())).isEqualTo(r);
        }
        assertThat(AuthResource.fromName("unknown/x")).isNull();
    }

    @Test
    void shouldInheritDownTheChainButNotFromAllKeyspacesIntoSystemKeyspaces() {
        UserPermissions u = new UserPermissions("u", false, true, null, Set.of("u"), Map.of(
                AuthResource.ALL_KEYSPACES, Set.of(Permission.SELECT, Permission.MODIFY),
                AuthResource.keyspace("system_auth"), Set.of(Permission.ALTER)));
        assertThat(u.has(Permission.SELECT, AuthResource.table("ks", "t"))).isTrue();
        assertThat(u.has(Permission.DROP, AuthResource.table("ks", "t"))).isFalse();
        assertThat(u.has(Permission.MODIFY, AuthResource.table("system_auth", "roles"))).isFalse();
        assertThat(u.has(Permission.SELECT, AuthResource.table("system", "local"))).isFalse();
        assertThat(u.has(Permission.ALTER, AuthResource.table("system_auth", "roles"))).isTrue();
        UserPermissions superuser = new UserPermissions("s", true, true, null, Set.of("s"), Map.of());
        assertThat(superuser.has(Permission.MODIFY, AuthResource.table("system_auth", "roles"))).isTrue();
    }

    @Test
    void shouldOfferCassandrasPermissionsPerKind() {
        assertThat(AuthResource.table("ks", "t").applicable()).doesNotContain(Permission.CREATE, Permission.DESCRIBE);
        assertThat(AuthResource.keyspace("ks").applicable()).contains(Permission.CREATE);
        assertThat(AuthResource.role("r").applicable()).containsExactlyInAnyOrder(Permission.ALTER, Permission.DROP,
                Permission.AUTHORIZE, Permission.DESCRIBE);
        assertThat(AuthResource.ALL_MBEANS.applicable()).contains(Permission.MODIFY).doesNotContain(Permission.CREATE);
    }

    @Test
    void shouldRecognizeBcryptHashesByTheirForm() {
        assertThat(AuthService.isBcrypt(AuthService.hash("pw"))).isTrue();
        assertThat(AuthService.isBcrypt("$2a$10$DcakQimCWgrESsgYTdxxDuYa5jvEuRfDdO3OQQQxtu6E0bcAcZCbK")).isTrue();
        assertThat(AuthService.isBcrypt("notbcrypt")).isFalse();
        assertThat(AuthService.isBcrypt("$2a$10$short")).isFalse();
    }

    @Test
    void shouldSplitSaslPlainTokens() {
        assertThat(AuthService.parsePlain("\0bob\0secret".getBytes())).containsExactly("bob", "secret");
        assertThat(AuthService.parsePlain("authz\0bob\0secret".getBytes())).containsExactly("bob", "secret");
        assertThat(AuthService.parsePlain("nothing".getBytes())).isNull();
    }
}
