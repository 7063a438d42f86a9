package dev.lockstep.testkit.resource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.UUID;
import org.h2.tools.Server;

/**
 * The resource a lock protects in the paused-holder story: a real table,
 * {@code stock(item, quantity, fence, version)}, in an H2 database served over TCP, so a holder in
 * its own JVM reads and writes the same rows. A plain read and a plain write trust the caller's lock. A
 * fenced write carries the writer's token and changes the row only if no higher token read or wrote
 * it before ({@code WHERE fence <= ?}: the same holder may write twice with its token). A fenced read
 * raises the fence to the reader's token first: the fence moves when a holder starts its
 * read-modify-write, so an older holder that read before it can no longer write in between.
 * An optimistic update needs no lock: it reads the row's version with the quantity, and its write
 * goes in only if the version is still the one it read ({@code WHERE version = ?}); every write
 * moves the version on.
 *
 * <p>H2 rather than SQLite: pure Java (no native library to extract), and its TCP server lets two
 * JVMs share one in-memory database without a file.
 */
public final class StockTable implements AutoCloseable {

    private static final String PLAIN_WRITE = "UPDATE stock SET quantity = ?, version = version + 1 WHERE item = ?";
    private static final String FENCED_WRITE =
            "UPDATE stock SET quantity = ?, fence = ?, version = version + 1 WHERE item = ? AND fence <= ?";
    private static final String VERSIONED_WRITE =
            "UPDATE stock SET quantity = ?, version = version + 1 WHERE item = ? AND version = ?";
    private static final String SELECT_VERSIONED = "SELECT quantity, version FROM stock WHERE item = ?";
    private static final String RAISE_FENCE = "UPDATE stock SET fence = ? WHERE item = ? AND fence <= ?";
    private static final String SELECT_ROW = "SELECT quantity, fence FROM stock WHERE item = ?";

    private final Server server;
    private final String url;
    private final Connection keepAlive;

    private StockTable(Server server, String url, Connection keepAlive) {
        this.server = server;
        this.url = url;
        this.keepAlive = keepAlive;
    }

    /** A fresh database on a free local port, with one row: {@code item} in stock {@code quantity} times, fence 0. */
    public static StockTable start(String item, long quantity) {
        try {
            Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
            String url = "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:stock-" + UUID.randomUUID();
            Connection connection = DriverManager.getConnection(url, "sa", "");
            try (var create = connection.createStatement()) {
                create.execute("CREATE TABLE stock (item VARCHAR(64) PRIMARY KEY, quantity BIGINT NOT NULL, "
                        + "fence BIGINT NOT NULL DEFAULT 0, version BIGINT NOT NULL DEFAULT 0)");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO stock (item, quantity) VALUES (?, ?)")) {
                insert.setString(1, item);
                insert.setLong(2, quantity);
                insert.executeUpdate();
            }
            return new StockTable(server, url, connection);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start the stock database", e);
        }
    }

    /** Where another JVM connects to this table. */
    public String url() {
        return url;
    }

    /** The row of {@code item} now. */
    public Row row(String item) {
        return row(url, item);
    }

    /** The row of {@code item} in the table at {@code url}. */
    public static Row row(String url, String item) {
        Objects.requireNonNull(item, "item must not be null");
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            return select(connection, item);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the stock of '" + item + "'", e);
        }
    }

    /**
     * The quantity of {@code item} at {@code url}, read by the holder of {@code token}: the fence
     * becomes the token, in the same transaction, so no holder with an older token can write after
     * this read.
     *
     * @throws StaleTokenException when a higher token read or wrote first; the row is unchanged
     */
    public static long read(String url, String item, long token) {
        checkToken(token);
        Objects.requireNonNull(item, "item must not be null");
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            connection.setAutoCommit(false);
            boolean raised;
            try (PreparedStatement raise = connection.prepareStatement(RAISE_FENCE)) {
                raise.setLong(1, token);
                raise.setString(2, item);
                raise.setLong(3, token);
                raised = raise.executeUpdate() == 1;
            }
            Row row = select(connection, item);
            connection.commit();
            if (!raised) {
                throw StaleTokenException.read(item, token, row.fence());
            }
            return row.quantity();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the stock of '" + item + "'", e);
        }
    }

    private static Row select(Connection connection, String item) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(SELECT_ROW)) {
            select.setString(1, item);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalArgumentException("no item '" + item + "' in stock");
                }
                return new Row(rows.getLong(1), rows.getLong(2));
            }
        }
    }

    /** Sets the quantity of {@code item} at {@code url}, trusting the caller's lock. */
    public static void write(String url, String item, long quantity) {
        Objects.requireNonNull(item, "item must not be null");
        update(url, PLAIN_WRITE, item, statement -> {
            statement.setLong(1, quantity);
            statement.setString(2, item);
        });
    }

    /**
     * Sets the quantity of {@code item} at {@code url} if no read or write with a higher token came first.
     *
     * @throws StaleTokenException when one did; the row is unchanged
     */
    public static void write(String url, String item, long quantity, long token) {
        checkToken(token);
        boolean written = update(url, FENCED_WRITE, item, statement -> {
            statement.setLong(1, quantity);
            statement.setLong(2, token);
            statement.setString(3, item);
            statement.setLong(4, token);
        });
        if (!written) {
            throw StaleTokenException.write(item, token, row(url, item).fence());
        }
    }

    /** The quantity of {@code item} at {@code url} and the row's version: what an optimistic update reads first. */
    public static Versioned readVersioned(String url, String item) {
        Objects.requireNonNull(item, "item must not be null");
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement select = connection.prepareStatement(SELECT_VERSIONED)) {
            select.setString(1, item);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalArgumentException("no item '" + item + "' in stock");
                }
                return new Versioned(rows.getLong(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the stock of '" + item + "'", e);
        }
    }

    /**
     * Sets the quantity of {@code item} at {@code url} if the row's version is still {@code version},
     * moving the version on; false, and the row unchanged, when another write came first.
     */
    public static boolean writeIfVersion(String url, String item, long quantity, long version) {
        return update(url, VERSIONED_WRITE, item, statement -> {
            statement.setLong(1, quantity);
            statement.setString(2, item);
            statement.setLong(3, version);
        });
    }

    /** A token is what a fenced lock handed out: 1 or more. */
    static void checkToken(long token) {
        if (token < 1) {
            throw new IllegalArgumentException("token must be positive, as a fenced lock hands them out: " + token);
        }
    }

    private static boolean update(String url, String sql, String item, Binder binder) {
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement update = connection.prepareStatement(sql)) {
            binder.bind(update);
            return update.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot write the stock of '" + item + "'", e);
        }
    }

    @Override
    public void close() {
        try {
            keepAlive.close();
        } catch (SQLException e) {
            // The server stops next, taking the database with it.
        }
        server.stop();
    }

    /** What an optimistic update read: the quantity, and the version its write must still find. */
    public record Versioned(long quantity, long version) {
    }

    /** One item's row: how many are in stock, and the highest token that read or wrote it (0: none yet). */
    public record Row(long quantity, long fence) {
    }

    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }
}
