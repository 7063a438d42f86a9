package dev.lockstep.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version for {@code --version}, from {@code lab.properties}, which the build fills in. */
final class LabVersion implements IVersionProvider {

    /** One line: program name and project version. */
    @Override
    public String[] getVersion() {
        Properties properties = new Properties();
        try (InputStream in = LabVersion.class.getResourceAsStream("/lab.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new String[] {"Lockstep lab " + properties.getProperty("version")};
    }
}
