package io.charybdis.node.jmx;

/**
 * Cassandra's {@code org.apache.cassandra.auth.CIDRPermissionsManagerMBean} at
 * {@code org.apache.cassandra.db:type=CIDRPermissionsManager}: nodetool invalidatecidrpermissionscache.
 */
public interface CidrPermissionsMBean {
    boolean invalidateCidrPermissionsCache(String roleName);
}
