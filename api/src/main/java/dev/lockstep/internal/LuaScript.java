package dev.lockstep.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/** A Lua script kept as a {@code .lua} resource beside the class that runs it; sent by SHA, by body only when Redis lacks it. */
public final class LuaScript {

    /** Where Redis says which line of a script raised an error: {@code @user_script:12}. */
    private static final Pattern SCRIPT_LINE = Pattern.compile("@user_script:\\s*(\\d+)");

    private final String resource;
    private final String body;
    private final String sha;

    private LuaScript(String resource, String body) {
        this.resource = resource;
        this.body = body;
        this.sha = sha1(body);
    }

    /** Loads {@code resource} from the package of {@code owner}. */
    public static LuaScript load(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no script " + resource + " beside " + owner.getName());
            }
            return new LuaScript(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the script: one round trip, or two the first time a server sees it. */
    public Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
        try {
            try {
                return redis.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                return redis.eval(body, keys, args);
            }
        } catch (JedisDataException e) {
            throw explained(e, keys);
        }
    }

    /**
     * Writes the script by SHA to {@code connection} and flushes it without reading the reply, so
     * one thread can have a request out on several servers at once; {@link #read} takes the reply.
     */
    public void send(Connection connection, List<String> keys, List<String> args) {
        connection.sendCommand(call(Command.EVALSHA, sha, keys, args));
        // Jedis has no public flush on its own: reading zero replies is one.
        connection.getMany(0);
    }

    /** Reads the reply to {@link #send}; sends the body and reads again when the server lacks the script. */
    public Object read(Connection connection, List<String> keys, List<String> args) {
        try {
            try {
                return BuilderFactory.AGGRESSIVE_ENCODED_OBJECT.build(connection.getOne());
            } catch (JedisNoScriptException e) {
                connection.sendCommand(call(Command.EVAL, body, keys, args));
                return BuilderFactory.AGGRESSIVE_ENCODED_OBJECT.build(connection.getOne());
            }
        } catch (JedisDataException e) {
            throw explained(e, keys);
        }
    }

    /**
     * Redis's error with what it leaves out: for an error inside the script, the script and the
     * line that raised it (Redis's message for a command the ACL forbids there does not name the
     * command, the line does); for a key the ACL forbids, the keys the script was given.
     */
    private JedisDataException explained(JedisDataException e, List<String> keys) {
        String message = String.valueOf(e.getMessage());
        Matcher line = SCRIPT_LINE.matcher(message);
        String[] lines = body.split("\n", -1);
        if (line.find()) {
            int number = Integer.parseInt(line.group(1));
            if (number >= 1 && number <= lines.length) {
                return new JedisDataException(message + " [" + resource + " line " + number + ": "
                        + lines[number - 1].strip() + "]", e);
            }
        } else if (message.startsWith("NOPERM") && message.contains("key")) {
            return new JedisDataException(message + " [" + resource + " with keys " + keys + "]", e);
        }
        return e;
    }

    private static CommandArguments call(Command command, String script, List<String> keys, List<String> args) {
        return new CommandArguments(command).add(script).add(keys.size()).keys(keys).addObjects(args);
    }

    /** Queues the script on {@code pipeline}, sent whole: a pipeline cannot retry after NOSCRIPT. */
    public Response<Object> queue(AbstractPipeline pipeline, List<String> keys, List<String> args) {
        return pipeline.eval(body, keys, args);
    }

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
