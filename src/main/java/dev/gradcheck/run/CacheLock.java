package dev.gradcheck.run;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The cache's lock, held while a run reads, merges and writes its record ({@link RunCache}): runs that end at once
 * each add their entries to what the others wrote (eight runs on one cache kept 5 or 6 of their 8 failures). A
 * file lock ({@code .lock} in the cache) between processes, and one lock in this JVM (a JVM cannot take a file
 * lock twice). The cache is advisory, so a lock that cannot be had (the file is not a regular one, the file
 * system has no locks, another run holds it past {@link #PATIENCE_MILLIS}) costs a warning, never the run.
 */
final class CacheLock implements AutoCloseable {

    /** How long a run waits for another to finish writing, a few milliseconds' work, before writing anyway. */
    static final long PATIENCE_MILLIS = 10_000;
    private static final long RETRY_MILLIS = 5;
    private static final ReentrantLock IN_THIS_JVM = new ReentrantLock();

    private final FileChannel channel;
    private final FileLock lock;

    private CacheLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of the cache in {@code dir} (which exists), or says why not and goes on without it. */
    static CacheLock take(Path dir, Consumer<String> warnings) {
        IN_THIS_JVM.lock();
        Path file = dir.resolve(".lock");
        try {
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                    && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(file + " is not a regular file"); // a FIFO would block the open
            }
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            long deadline = System.nanoTime() + PATIENCE_MILLIS * 1_000_000;
            for (FileLock lock = channel.tryLock(); ; lock = channel.tryLock()) {
                if (lock != null) {
                    return new CacheLock(channel, lock);
                }
                if (System.nanoTime() > deadline) {
                    channel.close();
                    throw new IOException("another run held " + file + " for " + PATIENCE_MILLIS / 1000 + " s");
                }
                Thread.sleep(RETRY_MILLIS);
            }
        } catch (IOException | RuntimeException e) {
            warnings.accept("writing the cache without its lock: " + CacheFiles.firstLine(e));
            return new CacheLock(null, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CacheLock(null, null);
        }
    }

    @Override
    public void close() {
        try {
            if (lock != null) {
                lock.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // released when the channel or the process goes
        } finally {
            IN_THIS_JVM.unlock();
        }
    }
}
