package dev.gradcheck.op;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * The process's resident size and its peak (VmRSS and VmHWM of /proc/self/status), both from one read, the cheap way:
 * {@link CallGate} reads them before and after each call it measures, 4 times in a fast check of about a millisecond.
 * (The resident size was read apart, from /proc/self/statm through JavaCPP, until 2026-11-28: a second file read
 * per reading for a value the status file already holds; JavaCPP's reading remains where the status file tells
 * nothing.) Opening the file, decoding it into
 * lines and a regular expression per read cost 36-44 µs a read (load 11, docs/benchmarks.md "Fast mode's memory
 * readings"); one file kept open, read from its start into one buffer and parsed as bytes, costs 16 µs, nearly all
 * of it the kernel writing the file. The value read is the same. A {@link RandomAccessFile}, not a FileChannel: a
 * channel is closed for good when a thread reading it is interrupted (a check's time limit interrupts its threads),
 * and every later read would have said 0, leaving the call gate blind for the rest of the process.
 */
final class PeakResident {

    static final byte[] PEAK = "VmHWM:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    static final byte[] RESIDENT = "VmRSS:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** /proc/self/status is about 1.5 KB, and VmHWM is in its first 20 lines. */
    private static final int BUFFER = 8192;

    private static RandomAccessFile status = open();
    private static final byte[] READ = new byte[BUFFER];

    private PeakResident() {
    }

    /** The resident size and its peak so far, in bytes; 0 for what the status file does not tell. */
    record Sizes(long resident, long peak) { }

    /** Both sizes from one read of the status file; the resident size from JavaCPP's reading where it has none. */
    static Sizes now() {
        Sizes read = sizes();
        return read.resident() > 0 ? read : new Sizes(org.bytedeco.javacpp.Pointer.physicalBytes(), read.peak());
    }

    private static synchronized Sizes sizes() {
        for (int attempt = 0; attempt < 2 && status != null; attempt++) {
            try {
                status.seek(0);
                int n = 0;
                int r;
                while (n < READ.length && (r = status.read(READ, n, READ.length - n)) > 0) {
                    n += r;
                }
                return new Sizes(parse(READ, n, RESIDENT), parse(READ, n, PEAK));
            } catch (IOException | RuntimeException e) {
                reopen(); // a file that failed once is not trusted again
            }
        }
        return new Sizes(0, 0); // the growth left after the call is all that is measured
    }

    private static void reopen() {
        try {
            status.close();
        } catch (IOException e) {
            // closing a file that failed: nothing to keep from it
        }
        status = open();
    }

    /** The value of the line that starts with {@code key}, in bytes (the file says kB); 0 where there is none. */
    static long parse(byte[] status, int n, byte[] key) {
        for (int line = 0; line < n; line = next(status, line, n)) {
            if (startsWithKey(status, line, n, key)) {
                long kib = 0;
                for (int i = line + key.length; i < n && status[i] != '\n'; i++) {
                    if (status[i] >= '0' && status[i] <= '9') {
                        kib = kib * 10 + (status[i] - '0');
                    }
                }
                return kib * 1024;
            }
        }
        return 0;
    }

    private static boolean startsWithKey(byte[] status, int at, int n, byte[] key) {
        if (at + key.length > n) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (status[at + i] != key[i]) {
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

    private static RandomAccessFile open() {
        try {
            return new RandomAccessFile("/proc/self/status", "r");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
