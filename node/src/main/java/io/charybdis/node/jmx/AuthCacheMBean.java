package io.charybdis.node.jmx;

/**
 * Cassandra's {@code org.apache.cassandra.auth.AuthCacheMBean} and the invalidations of its subinterfaces, which
 * nodetool's invalidate*cache and get/setauthcacheconfig commands call on
 * {@code org.apache.cassandra.auth:type=RolesCache}, {@code PermissionsCache}, {@code CredentialsCache},
 * {@code NetworkPermissionsCache} and {@code JmxPermissionsCache}. Times are milliseconds.
 */
public interface AuthCacheMBean {
    void invalidate();

    void setValidity(int validityMs);

    int getValidity();

    void setUpdateInterval(int updateIntervalMs);

    int getUpdateInterval();

    void setMaxEntries(int maxEntries);

    int getMaxEntries();

    boolean getActiveUpdate();

    void setActiveUpdate(boolean update);

    long getEstimatedSize();

    /** RolesCache. */
    void invalidateRoles(String roleName);

    /** PermissionsCache (role, resource name). */
    void invalidatePermissions(String roleName, String resourceName);

    /** JmxPermissionsCache. */
    void invalidatePermissions(String roleName);

    /** CredentialsCache. */
    void invalidateCredentials(String roleName);

    /** NetworkPermissionsCache. */
    void invalidateNetworkPermissions(String roleName);
}
