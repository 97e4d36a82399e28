package io.charybdis.storage.sstable;

import com.github.luben.zstd.Zstd;
import java.util.Locale;
import java.util.Map;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/** Chunk compression chosen from a table's CQL {@code compression} option. Thread-safe. */
public final class Compression {
    public static final byte NONE = 0;
    public static final byte LZ4 = 1;
    public static final byte ZSTD = 2;

    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
    private static final LZ4Compressor LZ4_COMPRESSOR = FACTORY.fastCompressor();
    private static final LZ4SafeDecompressor LZ4_DECOMPRESSOR = FACTORY.safeDecompressor();

    private final byte algorithm;
    private final int chunkLength;

    public Compression(byte algorithm, int chunkLength) {
        this.algorithm = algorithm;
        this.chunkLength = chunkLength;
    }

    public static Compression fromOptions(Map<String, String> options) {
        String cls = options.getOrDefault("class", options.getOrDefault("sstable_compression", "LZ4Compressor"));
        String enabled = options.getOrDefault("enabled", "true");
        int kb = Integer.parseInt(options.getOrDefault("chunk_length_in_kb", options.getOrDefault("chunk_length_kb", "16")));
        if (kb <= 0 || Integer.bitCount(kb) != 1 || kb > 1024) {
            throw new IllegalArgumentException("chunk_length_in_kb=" + kb + " must be a power of 2 in [1, 1024]");
        }
        String c = cls.toLowerCase(Locale.ROOT);
        byte alg;
        if (!Boolean.parseBoolean(enabled) || c.isEmpty() || c.equals("none")) {
            alg = NONE;
        } else if (c.contains("zstd")) {
            alg = ZSTD;
        } else {
            alg = LZ4; // LZ4, and the compressors we do not implement (Snappy, Deflate) fall back to LZ4
        }
        return new Compression(alg, kb * 1024);
    }

    public byte algorithm() {
        return algorithm;
    }

    public int chunkLength() {
        return chunkLength;
    }

    public int maxCompressedLength(int length) {
        return switch (algorithm) {
            case LZ4 -> LZ4_COMPRESSOR.maxCompressedLength(length);
            case ZSTD -> (int) Zstd.compressBound(length);
            default -> length;
        };
    }

    /** @return compressed length in dst, or -1 when compression does not pay (store raw) */
    public int compress(byte[] src, int length, byte[] dst) {
        int n = switch (algorithm) {
            case LZ4 -> LZ4_COMPRESSOR.compress(src, 0, length, dst, 0, dst.length);
            case ZSTD -> (int) Zstd.compressByteArray(dst, 0, dst.length, src, 0, length, 3);
            default -> -1;
        };
        return n >= 0 && n < length ? n : -1;
    }

    public static void decompress(byte algorithm, byte[] src, int srcLength, byte[] dst, int dstLength) {
        int n = switch (algorithm) {
            case LZ4 -> LZ4_DECOMPRESSOR.decompress(src, 0, srcLength, dst, 0, dstLength);
            case ZSTD -> {
                long r = Zstd.decompressByteArray(dst, 0, dstLength, src, 0, srcLength);
                if (Zstd.isError(r)) {
                    throw new IllegalStateException("zstd: " + Zstd.getErrorName(r));
                }
                yield (int) r;
            }
            default -> throw new IllegalStateException("unknown compressor id=" + algorithm);
        };
        if (n != dstLength) {
            throw new IllegalStateException("decompressed " + n + " bytes, expected " + dstLength);
        }
    }
}
