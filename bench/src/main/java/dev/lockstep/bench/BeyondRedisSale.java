package dev.lockstep.bench;

import dev.lockstep.FencedLock;
import dev.lockstep.testkit.resource.StockTable;
import dev.lockstep.testkit.resource.StockTable.Versioned;
import dev.lockstep.testkit.stage.Stages;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * One sale of the stories beyond Redis, with nobody else buying: read the stock, write it back one
 * lower. Under stage 7's fenced Redis lock and under the ZooKeeper lock it is lock, token, fenced
 * read, fenced write, unlock; the optimistic update takes no lock: it reads the row with its
 * version and writes only if the version is unchanged. Beside the sales, each lock alone
 * ({@code lockUnlock}), so the table's share shows; all of it read beside {@link RoundTrip} and
 * {@link ZooKeeperRoundTrip}. The table is testkit's {@link StockTable}, an H2 database served over
 * TCP from this JVM; each of its calls opens a connection of its own, as the scenarios' holders do.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class BeyondRedisSale {

    static final String ITEM = "book";
    /** More than any run sells, so every sale finds stock and does the same work. */
    static final long STOCK = Long.MAX_VALUE / 2;

    /** Who guards the sale. */
    public enum Contender {
        /** Stage 7 on one Redis server: its lock script hands out the token with the grant. */
        V7_FENCING("v7-fencing", FencedLockService::stageSeven),
        /** Curator's mutex on a 3-server ensemble in this JVM: the token is the lock node's creation zxid. */
        ZOOKEEPER_LOCK("zookeeper-lock", FencedLockService::zooKeeper),
        /** No lock: a version column checked on write. */
        OPTIMISTIC_UPDATE(Stages.OPTIMISTIC_UPDATE, null);

        private final String label;
        private final Supplier<FencedLockService> service;

        Contender(String label, Supplier<FencedLockService> service) {
            this.label = label;
            this.service = service;
        }

        /** The module's name, as the lab and the scenarios give it. */
        public String label() {
            return label;
        }

        /** This contender's lock service, started for one trial; null for the optimistic update. */
        FencedLockService start() {
            return service == null ? null : service.get();
        }
    }

    /** The stock table, and the contender's lock service and lock when it has one. */
    @State(Scope.Benchmark)
    public static class Shop {

        @Param
        public Contender contender;

        StockTable table;
        String url;
        private FencedLockService service;
        FencedLock lock;

        @Setup(Level.Trial)
        public void open() {
            table = StockTable.start(ITEM, STOCK);
            url = table.url();
            service = contender.start();
            lock = service == null ? null : service.lock("sale");
        }

        @TearDown(Level.Trial)
        public void close() {
            try (StockTable closing = table) {
                if (service != null) {
                    service.close();
                }
            }
        }
    }

    /** A lock service and its lock, with no table. */
    @State(Scope.Benchmark)
    public static class LockAlone {

        @Param({"V7_FENCING", "ZOOKEEPER_LOCK"})
        public Contender contender;

        private FencedLockService service;
        FencedLock lock;

        @Setup(Level.Trial)
        public void open() {
            service = contender.start();
            if (service == null) {
                throw new IllegalArgumentException(contender.label() + " takes no lock to measure alone");
            }
            lock = service.lock("alone");
        }

        @TearDown(Level.Trial)
        public void close() {
            service.close();
        }
    }

    /** One sale; returns the stock left. */
    @Benchmark
    public long sale(Shop shop) {
        return shop.lock == null ? optimisticSale(shop.url) : fencedSale(shop.lock, shop.url);
    }

    /** The lock alone, as {@link #sale} takes and releases it, token included. */
    @Benchmark
    public long lockUnlock(LockAlone alone) {
        alone.lock.lock();
        try {
            return alone.lock.token();
        } finally {
            alone.lock.unlock();
        }
    }

    private static long fencedSale(FencedLock lock, String url) {
        lock.lock();
        try {
            long token = lock.token();
            long left = StockTable.read(url, ITEM, token) - 1;
            StockTable.write(url, ITEM, left, token);
            return left;
        } finally {
            lock.unlock();
        }
    }

    private static long optimisticSale(String url) {
        Versioned read = StockTable.readVersioned(url, ITEM);
        long left = read.quantity() - 1;
        // Nobody else writes: a refused write here would mean a retry measured as a sale.
        if (!StockTable.writeIfVersion(url, ITEM, left, read.version())) {
            throw new IllegalStateException("the version moved with no other writer: " + read);
        }
        return left;
    }
}
