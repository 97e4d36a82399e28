package io.charybdis.node.jmx;

import io.charybdis.node.auth.AuthService;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * CIDR groups as Cassandra 5.0 keeps them in {@code system_auth.cidr_groups} (a group name and a set of
 * (address, prefix length) tuples), managed over JMX by nodetool. Groups are what {@code ACCESS FROM CIDRS {...}}
 * may name. With AllowAllCIDRAuthorizer, Cassandra's default and Charybdis's only CIDR authorizer, nothing is
 * enforced, so the lookups and caches of CassandraCIDRAuthorizer are refused with Cassandra's messages.
 *
 * <p>A CIDR is {@code address/length}, the address reduced to its network part ({@code 10.0.0.1/8} is kept as
 * {@code 10.0.0.0/8}), as Cassandra's CIDR class does.
 */
final class CidrGroups implements CidrGroupsMBean, CidrPermissionsMBean {
    private static final long TIMEOUT_S = 10;
    private static final String AUTHORIZER = "AllowAllCIDRAuthorizer";

    private final AuthService auth;

    CidrGroups(AuthService auth) {
        this.auth = auth;
    }

    private static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("system_auth.cidr_groups could not be read or written: " + e);
        }
    }

    @Override
    public Set<String> getAvailableCidrGroups() {
        return new LinkedHashSet<>(await(auth.store().cidrGroups()));
    }

    @Override
    public Set<String> getCidrsOfCidrGroupAsStrings(String cidrGroupName) {
        ByteBuffer cidrs = await(auth.store().cidrsOf(cidrGroupName));
        Set<String> out = new LinkedHashSet<>();
        if (cidrs == null) {
            return out;
        }
        ByteBuffer b = cidrs.duplicate();
        int n = b.getInt();
        for (int i = 0; i < n; i++) {
            b.getInt(); // the tuple's length
            byte[] address = new byte[b.getInt()];
            b.get(address);
            b.getInt(); // smallint: 2 bytes
            short length = b.getShort();
            try {
                out.add(InetAddress.getByAddress(address).getHostAddress() + "/" + length);
            } catch (UnknownHostException e) {
                throw new IllegalStateException("cidr_group=" + cidrGroupName + " holds a bad address: " + e);
            }
        }
        return out;
    }

    @Override
    public void updateCidrGroup(String cidrGroupName, List<String> cidrs) {
        List<String> tuples = new ArrayList<>();
        for (String cidr : cidrs) {
            tuples.add(tuple(cidr));
        }
        await(auth.store().putCidrGroup(cidrGroupName, "{" + String.join(", ", tuples) + "}"));
    }

    @Override
    public void dropCidrGroup(String cidrGroupName) {
        if (await(auth.store().cidrsOf(cidrGroupName)) == null) {
            // a RuntimeException, as Cassandra's: nodetool prints it as "error: ..."
            throw new RuntimeException("CIDR group '" + cidrGroupName + "' doesn't exists");
        }
        await(auth.store().dropCidrGroup(cidrGroupName));
    }

    @Override
    public void recreateCidrGroupsMapping(Map<String, List<String>> cidrGroupsMapping) {
        for (String group : cidrGroupsMapping.keySet()) { // checked before anything is changed
            cidrGroupsMapping.get(group).forEach(CidrGroups::tuple);
        }
        for (String group : getAvailableCidrGroups()) {
            await(auth.store().dropCidrGroup(group));
        }
        cidrGroupsMapping.forEach(this::updateCidrGroup);
    }

    @Override
    public Set<String> getCidrGroupsOfIP(String ipStr) {
        throw new UnsupportedOperationException("'Get CIDR groups for IP' operation not supported by " + AUTHORIZER);
    }

    @Override
    public void loadCidrGroupsCache() {
        throw new UnsupportedOperationException("Load CIDR groups cache operation not supported by " + AUTHORIZER);
    }

    @Override
    public boolean invalidateCidrPermissionsCache(String roleName) {
        throw new UnsupportedOperationException("Invalidate CIDR permissions cache operation not supported by "
                + AUTHORIZER);
    }

    /** {@code address/length} as a CQL tuple literal, the address reduced to its network part. */
    static String tuple(String cidr) {
        int slash = cidr == null ? -1 : cidr.indexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException(cidr + " is not a valid CIDR String");
        }
        String host = cidr.substring(0, slash);
        int length;
        byte[] address;
        try {
            length = Integer.parseInt(cidr.substring(slash + 1));
            // only literal addresses: a host name would be looked up
            if (!host.matches("\\d{1,3}(\\.\\d{1,3}){3}") && !(host.contains(":") && host.matches("[0-9a-fA-F:.]+"))) {
                throw new IllegalArgumentException(cidr + " is not a valid CIDR String");
            }
            address = InetAddress.getByName(host).getAddress();
        } catch (NumberFormatException | UnknownHostException e) {
            throw new IllegalArgumentException(cidr + " is not a valid CIDR String");
        }
        if (length < 0 || length > address.length * 8) {
            throw new IllegalArgumentException(cidr + " is not a valid CIDR String");
        }
        for (int bit = length; bit < address.length * 8; bit++) {
            address[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        try {
            return "('" + InetAddress.getByAddress(address).getHostAddress() + "', " + length + ")";
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(cidr + " is not a valid CIDR String");
        }
    }
}
