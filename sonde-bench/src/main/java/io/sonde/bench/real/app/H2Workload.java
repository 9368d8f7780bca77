package io.sonde.bench.real.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A JDBC workload on an in-memory H2 database (only {@code java.sql} is used here, H2 is found by
 * its URL): inserts, indexed and scanning selects, aggregates, a join, updates, deletes and
 * statements that must fail. The operation mix comes from a fixed seed, so a run of {@code N}
 * operations always makes the same statements; every result row, update count and error code goes
 * into the digest. A failing statement that succeeds, or an error where none is expected, is a
 * failure.
 */
final class H2Workload implements Workload {

    private static final long SEED = 0x5EED_0019L;
    private static final int REGIONS = 16;

    private Connection connection;
    private PreparedStatement insert;
    private PreparedStatement byId;
    private PreparedStatement byRegion;
    private PreparedStatement scan;
    private PreparedStatement sumByRegion;
    private PreparedStatement join;
    private PreparedStatement update;
    private PreparedStatement delete;
    private PreparedStatement event;

    @Override
    public void prepare() throws SQLException {
        connection = DriverManager.getConnection("jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1", "sa", "");
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE account(id INT PRIMARY KEY, owner VARCHAR(40) NOT NULL, balance BIGINT NOT NULL,"
                    + " region INT NOT NULL)");
            s.execute("CREATE INDEX account_region ON account(region)");
            s.execute("CREATE TABLE event(id BIGINT AUTO_INCREMENT PRIMARY KEY, account INT NOT NULL, amount BIGINT NOT NULL)");
        }
        insert = connection.prepareStatement("INSERT INTO account(id, owner, balance, region) VALUES (?, ?, ?, ?)");
        byId = connection.prepareStatement("SELECT owner, balance, region FROM account WHERE id = ?");
        byRegion = connection.prepareStatement("SELECT id, balance FROM account WHERE region = ? ORDER BY id LIMIT 20");
        scan = connection.prepareStatement("SELECT COUNT(*), COALESCE(MAX(balance), 0) FROM account WHERE owner LIKE ?");
        sumByRegion = connection.prepareStatement(
                "SELECT region, COUNT(*), SUM(balance), MIN(balance) FROM account GROUP BY region ORDER BY region");
        join = connection.prepareStatement("SELECT a.owner, SUM(e.amount) FROM account a JOIN event e ON e.account = a.id"
                + " WHERE a.region = ? GROUP BY a.owner ORDER BY a.owner LIMIT 10");
        update = connection.prepareStatement("UPDATE account SET balance = balance + ? WHERE region = ? AND id % 7 = ?");
        delete = connection.prepareStatement("DELETE FROM account WHERE id = ?");
        event = connection.prepareStatement("INSERT INTO event(account, amount) VALUES (?, ?)");
    }

    @Override
    public Outcome run(long ops, Slices slices) throws SQLException {
        SplittableRandom random = new SplittableRandom(SEED);
        List<String> failures = new ArrayList<>();
        long digest = 17;
        int nextId = 0;
        for (long op = 0; op < ops; op++) {
            slices.starting(op);
            int kind = random.nextInt(100);
            int id = nextId == 0 ? 0 : random.nextInt(nextId);
            int region = random.nextInt(REGIONS);
            if (kind < 30) {
                insert.setInt(1, nextId);
                insert.setString(2, "owner-" + (nextId % 97) + "-" + random.nextInt(1000));
                insert.setLong(3, random.nextInt(1_000_000));
                insert.setInt(4, region);
                digest = Workload.mix(digest, insert.executeUpdate());
                event.setInt(1, nextId);
                event.setLong(2, random.nextInt(500));
                digest = Workload.mix(digest, event.executeUpdate());
                nextId++;
            } else if (kind < 50) {
                byId.setInt(1, id);
                digest = rows(digest, byId);
            } else if (kind < 60) {
                byRegion.setInt(1, region);
                digest = rows(digest, byRegion);
            } else if (kind < 65) {
                scan.setString(1, "%-" + random.nextInt(1000) + "%");
                digest = rows(digest, scan);
            } else if (kind < 72) {
                digest = rows(digest, sumByRegion);
            } else if (kind < 77) {
                join.setInt(1, region);
                digest = rows(digest, join);
            } else if (kind < 87) {
                update.setLong(1, random.nextInt(100) - 50);
                update.setInt(2, region);
                update.setInt(3, random.nextInt(7));
                digest = Workload.mix(digest, update.executeUpdate());
            } else if (kind < 93) {
                delete.setInt(1, id);
                digest = Workload.mix(digest, delete.executeUpdate());
            } else {
                digest = failing(digest, kind % 3, id, op, failures);
            }
        }
        return new Outcome(digest, ops, failures);
    }

    /** A statement that must fail: a duplicate key, a missing table, or bad syntax. */
    private long failing(long digest, int which, int id, long op, List<String> failures) throws SQLException {
        String sql = switch (which) {
            case 0 -> "INSERT INTO account(id, owner, balance, region) VALUES (-1, 'dup', 0, 0), (-1, 'dup', 0, 0)";
            case 1 -> "SELECT * FROM no_such_table WHERE id = " + id;
            default -> "SELEC id FROM account";
        };
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
            failures.add("operation " + op + ": '" + sql + "' succeeded, an error was expected");
            return digest;
        } catch (SQLException expected) {
            return Workload.mix(digest, expected.getErrorCode());
        }
    }

    private static long rows(long digest, PreparedStatement query) throws SQLException {
        long h = digest;
        try (ResultSet rs = query.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int c = 1; c <= columns; c++) {
                    h = Workload.mix(h, String.valueOf(rs.getObject(c)));
                }
            }
        }
        return h;
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            try (Statement s = connection.createStatement()) {
                s.execute("SHUTDOWN");
            }
            connection.close();
        }
    }
}
