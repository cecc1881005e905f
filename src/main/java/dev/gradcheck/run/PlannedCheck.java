package dev.gradcheck.run;

import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.OpSpec;

/**
 * One row of a run as planned, before anything ran: what a live display needs to lay out a row it has not got yet
 * (names, ops, dtypes, how many rows there will be).
 *
 * @param index  the row's position in the report
 * @param name   the spec's name
 * @param engine the engine the row runs on; null for a spec that could not be read or validated
 * @param spec   the spec with the run's overrides applied; null for one that could not be read or validated
 */
public record PlannedCheck(int index, String name, Engine engine, OpSpec spec) {}
