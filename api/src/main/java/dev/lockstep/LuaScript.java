package dev.lockstep;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/** A Lua script kept as a {@code .lua} resource beside the class that runs it; sent by SHA, by body only when Redis lacks it. */
public final class LuaScript {

    private final String body;
    private final String sha;

    private LuaScript(String body) {
        this.body = body;
        this.sha = sha1(body);
    }

    /** Loads {@code resource} from the package of {@code owner}. */
    public static LuaScript load(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no script " + resource + " beside " + owner.getName());
            }
            return new LuaScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the script: one round trip, or two the first time a server sees it. */
    public Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
        try {
            return redis.evalsha(sha, keys, args);
        } catch (JedisNoScriptException e) {
            return redis.eval(body, keys, args);
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
            return BuilderFactory.AGGRESSIVE_ENCODED_OBJECT.build(connection.getOne());
        } catch (JedisNoScriptException e) {
            connection.sendCommand(call(Command.EVAL, body, keys, args));
            return BuilderFactory.AGGRESSIVE_ENCODED_OBJECT.build(connection.getOne());
        }
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
