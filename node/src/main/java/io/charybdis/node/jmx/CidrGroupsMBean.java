package io.charybdis.node.jmx;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cassandra's {@code org.apache.cassandra.auth.CIDRGroupsMappingManagerMBean} at
 * {@code org.apache.cassandra.db:type=CIDRGroupsMappingManager}: nodetool's listcidrgroups, updatecidrgroup,
 * dropcidrgroup, getcidrgroupsofip and reloadcidrgroupscache.
 */
public interface CidrGroupsMBean {
    Set<String> getAvailableCidrGroups();

    Set<String> getCidrsOfCidrGroupAsStrings(String cidrGroupName);

    void updateCidrGroup(String cidrGroupName, List<String> cidrs);

    void dropCidrGroup(String cidrGroupName);

    void recreateCidrGroupsMapping(Map<String, List<String>> cidrGroupsMapping);

    Set<String> getCidrGroupsOfIP(String ipStr);

    void loadCidrGroupsCache();
}
