package dev.orderly.sim.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The version {@code orderly --version} prints: the project's version as the build wrote it into
 * {@code orderly-version.properties} (a filtered resource), so the command and the poms can not disagree.
 */
final class ProjectVersion implements CommandLine.IVersionProvider {

    static final String RESOURCE = "orderly-version.properties";

    /** The project's version, for example {@code 0.2.0-SNAPSHOT}. */
    static String version() {
        try (InputStream in = ProjectVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path; the build writes it");
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version");
            if (version == null || version.isBlank() || version.startsWith("${")) {
                throw new IllegalStateException(RESOURCE + " holds no version: '" + version + "'");
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + RESOURCE, e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"orderly " + version()};
    }
}
