package dev.gradcheck.op;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The process's peak resident size (VmHWM of /proc/self/status), read the cheap way: {@link CallGate} reads it before
 * and after each call it measures, 4 times in a fast check of about a millisecond. Opening the file, decoding it into
 * lines and a regular expression per read cost 36-44 µs a read (load 11, docs/benchmarks.md "Fast mode's memory
 * readings"); one channel kept open, read from its start into one buffer and parsed as bytes, costs 16 µs, nearly all
 * of it the kernel writing the file. The value read is the same.
 */
final class PeakResident {

    private static final byte[] KEY = "VmHWM:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** /proc/self/status is about 1.5 KB, and VmHWM is in its first 20 lines. */
    private static final int BUFFER = 8192;

    private static final FileChannel STATUS = open();
    private static final ByteBuffer READ = ByteBuffer.allocate(BUFFER);

    private PeakResident() {
    }

    /** The peak resident size in bytes, or 0 where the system does not tell it (not Linux). */
    static synchronized long bytes() {
        if (STATUS == null) {
            return 0;
        }
        try {
            READ.clear();
            int n = 0;
            int r;
            while (READ.hasRemaining() && (r = STATUS.read(READ, n)) > 0) {
                n += r;
            }
            return parse(READ.array(), n);
        } catch (IOException | RuntimeException e) {
            return 0; // the growth left after the call is all that is measured
        }
    }

    /** VmHWM's value in the first {@code n} bytes of a status file, in bytes; 0 where there is no such line. */
    static long parse(byte[] status, int n) {
        for (int line = 0; line < n; line = next(status, line, n)) {
            if (startsWithKey(status, line, n)) {
                long kib = 0;
                for (int i = line + KEY.length; i < n && status[i] != '\n'; i++) {
                    if (status[i] >= '0' && status[i] <= '9') {
                        kib = kib * 10 + (status[i] - '0');
                    }
                }
                return kib * 1024;
            }
        }
        return 0;
    }

    private static boolean startsWithKey(byte[] status, int at, int n) {
        if (at + KEY.length > n) {
            return false;
        }
        for (int i = 0; i < KEY.length; i++) {
            if (status[at + i] != KEY[i]) {
                return false;
            }
        }
        return true;
    }

    /** Where the line after the one starting at {@code at} starts, or n. */
    private static int next(byte[] status, int at, int n) {
        int i = at;
        while (i < n && status[i] != '\n') {
            i++;
        }
        return i + 1;
    }

    private static FileChannel open() {
        try {
            return FileChannel.open(Path.of("/proc/self/status"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
