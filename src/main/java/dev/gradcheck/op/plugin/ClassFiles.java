package dev.gradcheck.op.plugin;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The classes a plugin path holds, read as files: a path may hold a user's own DL4J layers (a configuration class
 * and its implementation) rather than operators, and the front end, which loads no DL4J class, can only see that
 * they are there. A class file is known by the name it declares, so a path that holds classes one folder down (a
 * classes folder's parent) is told from one that holds them where a class loader finds them.
 */
final class ClassFiles {

    /**
     * What a path holds.
     *
     * @param placed    a class at its own name's path (as {@code com/example/Layer.class}), found by a class loader
     *                  of the path; or null
     * @param misplaced a class file under another path, as {@code classes/com/example/Layer.class}; or null
     */
    record Found(String placed, String misplaced) {}

    private ClassFiles() {}

    static Found scan(Path path) throws IOException {
        Found found = new Found(null, null);
        if (Files.isDirectory(path)) {
            try (Stream<Path> walk = Files.walk(path)) {
                for (Path f : (Iterable<Path>) walk.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    if (found.placed() != null) {
                        break;
                    }
                    try (InputStream in = Files.newInputStream(f)) {
                        found = add(found, path.relativize(f).toString().replace('\\', '/'), in);
                    }
                }
            }
            return found;
        }
        try (JarFile jar = new JarFile(path.toFile())) {
            for (JarEntry e : (Iterable<JarEntry>) jar.stream().filter(e -> e.getName().endsWith(".class"))::iterator) {
                if (found.placed() != null) {
                    break;
                }
                try (InputStream in = jar.getInputStream(e)) {
                    found = add(found, e.getName(), in);
                }
            }
        }
        return found;
    }

    private static Found add(Found found, String file, InputStream in) throws IOException {
        if (file.endsWith("module-info.class") || file.startsWith("META-INF/")) {
            return found;
        }
        Optional<String> name = declaredName(in);
        if (name.isEmpty()) {
            return found;
        }
        if (file.equals(name.get() + ".class")) {
            return found.placed() != null ? found : new Found(name.get().replace('/', '.'), found.misplaced());
        }
        return found.misplaced() != null ? found : new Found(found.placed(), file + " holds "
                + name.get().replace('/', '.'));
    }

    /**
     * The class's own name, as its file declares it ({@code this_class}, after the constant pool), in the JVM's
     * form ({@code com/example/Layer}); empty for a file that is no class file.
     */
    static Optional<String> declaredName(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        if (in.readInt() != 0xCAFEBABE) {
            return Optional.empty();
        }
        in.readInt(); // minor and major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNameIndex = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classNameIndex[i] = in.readUnsignedShort();
                case 8, 16, 19, 20 -> in.skipBytes(2);
                case 15 -> in.skipBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                case 5, 6 -> { // a long or a double takes two entries
                    in.skipBytes(8);
                    i++;
                }
                default -> {
                    return Optional.empty();
                }
            }
        }
        in.readUnsignedShort(); // access flags
        int thisClass = in.readUnsignedShort();
        return thisClass < count ? Optional.ofNullable(utf8[classNameIndex[thisClass]]) : Optional.empty();
    }
}
