package io.charybdis.stress.generate;

import com.datastax.oss.driver.api.core.type.DataType;
import io.charybdis.stress.dist.DistributionSpec;

/**
 * How one column of a user-profile table is generated: its place in the primary key, its CQL type, and the
 * profile's {@code columnspec} distributions (defaults already applied).
 *
 * @param size       the length of text and blob values, the element count of collections
 * @param population the identities values are made from (how many distinct values the column has)
 * @param cluster    clustering columns: how many distinct values per partition and parent prefix
 */
public record ColumnModel(String name, Kind kind, DataType type, DistributionSpec size, DistributionSpec population,
                          DistributionSpec cluster) {

    public enum Kind { PARTITION_KEY, CLUSTERING, STATIC, REGULAR }
}
