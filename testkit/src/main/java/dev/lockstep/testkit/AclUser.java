package dev.lockstep.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * A Redis ACL user, as a lesson documents it: one line {@code ACL SETUSER lockstep on >secret ...}.
 * Tests read the rule from the lesson itself, so the documented rule is exactly the tested one.
 *
 * @param name     the user name
 * @param password the password, from the rule's {@code >password} token
 * @param rules    the rule's tokens after the user name
 */
public record AclUser(String name, String password, List<String> rules) {

    private static final String SETUSER = "ACL SETUSER ";

    /** Copies {@code rules}. */
    public AclUser {
        rules = List.copyOf(rules);
    }

    /** The user of the first {@code ACL SETUSER} line in {@code lesson} (a README). */
    public static AclUser documentedIn(Path lesson) {
        try {
            String line = Files.readAllLines(lesson).stream().map(String::strip)
                    .filter(l -> l.startsWith(SETUSER)).findFirst()
                    .orElseThrow(() -> new IllegalStateException(lesson + " documents no " + SETUSER.strip() + " line"));
            List<String> tokens = Arrays.asList(line.substring(SETUSER.length()).trim().split("\\s+"));
            String password = tokens.stream().filter(t -> t.startsWith(">")).map(t -> t.substring(1)).findFirst()
                    .orElseThrow(() -> new IllegalStateException(lesson + ": the ACL rule sets no >password"));
            return new AclUser(tokens.get(0), password, tokens.subList(1, tokens.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A user called {@code otherName} with this one's password and rules: beside it, not instead of it. */
    public AclUser named(String otherName) {
        return new AclUser(otherName, password, rules);
    }

    /** The same user with {@code rule} left out of its rules. */
    public AclUser without(String rule) {
        if (!rules.contains(rule)) {
            throw new IllegalArgumentException("rule " + rule + " is not among " + rules);
        }
        List<String> fewer = new ArrayList<>(rules);
        fewer.remove(rule);
        return new AclUser(name, password, fewer);
    }

    /** Creates (or redefines) this user on {@code node} with exactly its rules: {@code ACL SETUSER name reset ...}. */
    public void createOn(RedisNode node) {
        List<String> args = new ArrayList<>(List.of("SETUSER", name, "reset"));
        args.addAll(rules);
        try (Jedis admin = node.admin()) {
            admin.sendCommand(Protocol.Command.ACL, args.toArray(String[]::new));
        }
    }

    /** A pooled client of {@code node} logged in as this user (over TLS if the node wants it); the caller closes it. */
    public RedisClient clientOf(RedisNode node) {
        return RedisClient.builder()
                .hostAndPort(node.address())
                .clientConfig(node.security().clientConfig(RedisNode.CLIENT_TIMEOUT).user(name).password(password).build())
                .build();
    }

    @Override
    public String toString() {
        return SETUSER + name + " " + String.join(" ", rules);
    }
}
