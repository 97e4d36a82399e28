package io.charybdis.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Fails a test class when Netty's leak detector (paranoid in the surefire argLine) reports a ByteBuf that was
 * garbage-collected without being released. Registered for every test through the ServiceLoader
 * (junit.jupiter.extensions.autodetection.enabled), so the recording factory is installed before any buffer.
 */
public final class LeakCheckExtension implements AfterAllCallback {
    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            @SuppressWarnings("deprecation")
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                       long maxActive) {
                return new ResourceLeakDetector<>(resource, samplingInterval) {
                    @Override
                    protected void reportTracedLeak(String resourceType, String records) {
                        LEAKS.add(resourceType + records);
                        super.reportTracedLeak(resourceType, records);
                    }

                    @Override
                    protected void reportUntracedLeak(String resourceType) {
                        LEAKS.add(resourceType);
                        super.reportUntracedLeak(resourceType);
                    }
                };
            }
        });
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
            // leaks are reported when a new tracked buffer is created
            for (ByteBuf b : new ByteBuf[] {PooledByteBufAllocator.DEFAULT.buffer(1),
                    PooledByteBufAllocator.DEFAULT.directBuffer(1), UnpooledByteBufAllocator.DEFAULT.buffer(1),
                    UnpooledByteBufAllocator.DEFAULT.directBuffer(1)}) {
                b.release();
            }
        }
        if (!LEAKS.isEmpty()) {
            String report = String.join("\n", LEAKS);
            LEAKS.clear();
            throw new AssertionError("ByteBuf leaks detected after " + context.getDisplayName() + ":\n" + report);
        }
    }
}
