package io.charybdis.node.jmx;

/** Part of Cassandra's {@code org.apache.cassandra.service.CacheServiceMBean} ({@code org.apache.cassandra.db:type=Caches}). */
public interface CacheServiceMBean {
    int getRowCacheSavePeriodInSeconds();

    int getKeyCacheSavePeriodInSeconds();

    int getCounterCacheSavePeriodInSeconds();

    int getRowCacheKeysToSave();

    int getKeyCacheKeysToSave();

    int getCounterCacheKeysToSave();
}
