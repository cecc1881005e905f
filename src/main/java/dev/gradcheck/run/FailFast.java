package dev.gradcheck.run;

import dev.gradcheck.result.CheckResult;

/**
 * {@code --fail-fast}: at the first check that did not end as expected, no later check starts and the results
 * end there (checks before it still run, so the report has no gaps up to it).
 */
final class FailFast implements RunListener {

    private final RunSession session;

    FailFast(RunSession session) {
        this.session = session;
    }

    @Override
    public void checkFinished(int index, CheckResult result) {
        if (result.status().needsAttention()) {
            session.stopAfter(index);
        }
    }
}
