package io.charybdis.node.jmx;

import io.charybdis.node.auth.AuthService;
import java.time.Duration;

/**
 * The auth caches nodetool manages. Charybdis keeps one cache of what a role is (its roles, superuser and login
 * status, and its permissions), so Cassandra's RolesCache, PermissionsCache and JmxPermissionsCache are views of it:
 * invalidating any of them, for one role or all, empties it (a role's change reaches the roles granted it), and its
 * validity and size limit are theirs. Credentials are not cached (every login reads {@code system_auth.roles}) and
 * AllowAllNetworkAuthorizer keeps no network permissions, so CredentialsCache and NetworkPermissionsCache hold
 * nothing: invalidating them has nothing to do, they report a validity and size of 0, and their settings cannot be
 * changed (an error says why).
 */
final class AuthCaches {
    private AuthCaches() {
    }

    /** RolesCache, PermissionsCache, JmxPermissionsCache: the role cache. */
    static final class Roles implements AuthCacheMBean {
        private final AuthService auth;

        Roles(AuthService auth) {
            this.auth = auth;
        }

        @Override
        public void invalidate() {
            auth.invalidate();
        }

        @Override
        public void setValidity(int validityMs) {
            auth.setValidity(Duration.ofMillis(Math.max(0, validityMs)));
        }

        @Override
        public int getValidity() {
            return (int) Math.min(Integer.MAX_VALUE, auth.validity().toMillis());
        }

        /** Entries are reloaded when they expire: the update interval is the validity, as Cassandra's default. */
        @Override
        public void setUpdateInterval(int updateIntervalMs) {
            throw new UnsupportedOperationException("the role cache reloads a role when its validity ends: set the "
                    + "validity period instead of an update interval");
        }

        @Override
        public int getUpdateInterval() {
            return getValidity();
        }

        @Override
        public void setMaxEntries(int maxEntries) {
            auth.setMaxEntries(maxEntries);
        }

        @Override
        public int getMaxEntries() {
            return (int) Math.min(Integer.MAX_VALUE, auth.maxEntries());
        }

        @Override
        public boolean getActiveUpdate() {
            return false;
        }

        @Override
        public void setActiveUpdate(boolean update) {
            if (update) {
                throw new UnsupportedOperationException("the role cache has no active update: a role is reloaded "
                        + "when its validity ends");
            }
        }

        @Override
        public long getEstimatedSize() {
            return auth.cachedRoles();
        }

        @Override
        public void invalidateRoles(String roleName) {
            auth.invalidate();
        }

        @Override
        public void invalidatePermissions(String roleName, String resourceName) {
            auth.invalidate();
        }

        @Override
        public void invalidatePermissions(String roleName) {
            auth.invalidate();
        }

        @Override
        public void invalidateCredentials(String roleName) {
            auth.invalidate();
        }

        @Override
        public void invalidateNetworkPermissions(String roleName) {
            auth.invalidate();
        }
    }

    /** CredentialsCache and NetworkPermissionsCache: nothing is cached. */
    static final class Uncached implements AuthCacheMBean {
        private final String why;

        Uncached(String why) {
            this.why = why;
        }

        private UnsupportedOperationException refused() {
            return new UnsupportedOperationException(why);
        }

        @Override
        public void invalidate() {
        }

        @Override
        public void setValidity(int validityMs) {
            throw refused();
        }

        @Override
        public int getValidity() {
            return 0;
        }

        @Override
        public void setUpdateInterval(int updateIntervalMs) {
            throw refused();
        }

        @Override
        public int getUpdateInterval() {
            return 0;
        }

        @Override
        public void setMaxEntries(int maxEntries) {
            throw refused();
        }

        @Override
        public int getMaxEntries() {
            return 0;
        }

        @Override
        public boolean getActiveUpdate() {
            return false;
        }

        @Override
        public void setActiveUpdate(boolean update) {
            throw refused();
        }

        @Override
        public long getEstimatedSize() {
            return 0;
        }

        @Override
        public void invalidateRoles(String roleName) {
        }

        @Override
        public void invalidatePermissions(String roleName, String resourceName) {
        }

        @Override
        public void invalidatePermissions(String roleName) {
        }

        @Override
        public void invalidateCredentials(String roleName) {
        }

        @Override
        public void invalidateNetworkPermissions(String roleName) {
        }
    }
}
