/**
 * Internal (no compatibility promise): code the build runs, never the tool: the training run the class-data
 * archive is recorded from ({@code ArchiveTraining}), its size written beside it ({@code ArchiveSize}) and the man-page writer ({@code ManPages}, {@code mvn -Pman}).
 */
package dev.gradcheck.build;
