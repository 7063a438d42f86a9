package dev.lockstep.testkit.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a module shows its users: every public type outside its {@code internal} packages, and the
 * public and protected members each declares, one line each, sorted. A stage's surface test pins
 * this list, so that plumbing cannot leak into the API unnoticed.
 */
public final class PublicSurface {

    private PublicSurface() {
    }

    /** The surface of the module whose classes hold {@code anchor}. */
    public static List<String> of(Class<?> anchor) {
        TreeSet<String> lines = new TreeSet<>();
        for (Class<?> type : publicTypes(anchor)) {
            String name = type.getSimpleName();
            lines.add((type.isInterface() ? "interface " : "class ") + name);
            Stream.of(type.getDeclaredConstructors(), type.getDeclaredMethods(), type.getDeclaredFields())
                    .flatMap(Arrays::stream).map(Member.class::cast)
                    .filter(member -> !member.isSynthetic() && shown(member.getModifiers()))
                    .filter(member -> !(member instanceof Method method && method.isBridge()))
                    .forEach(member -> lines.add(name + "." + describe(member)));
        }
        return List.copyOf(lines);
    }

    private static boolean shown(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static String describe(Member member) {
        String prefix = (Modifier.isProtected(member.getModifiers()) ? "protected " : "")
                + (Modifier.isStatic(member.getModifiers()) ? "static " : "");
        if (member instanceof Field field) {
            return prefix + field.getName() + ": " + field.getType().getSimpleName();
        }
        Executable executable = (Executable) member;
        String parameters = Arrays.stream(executable.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        String returns = executable instanceof Method method ? ": " + method.getReturnType().getSimpleName() : "";
        String name = executable instanceof Constructor<?> ? "<init>" : executable.getName();
        return prefix + name + "(" + parameters + ")" + returns;
    }

    private static List<Class<?>> publicTypes(Class<?> anchor) {
        try {
            Path classes = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (Stream<Path> files = Files.walk(classes)) {
                return files.map(file -> classes.relativize(file).toString())
                        .filter(file -> file.endsWith(".class") && !file.contains("$") && !file.endsWith("package-info.class"))
                        .map(file -> file.replace(classes.getFileSystem().getSeparator(), ".").replaceAll("\\.class$", ""))
                        .filter(name -> !name.contains(".internal."))
                        .<Class<?>>map(name -> load(name, anchor.getClassLoader()))
                        .filter(type -> Modifier.isPublic(type.getModifiers()))
                        .toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
