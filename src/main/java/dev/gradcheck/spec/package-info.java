/**
 * Internal (no compatibility promise): YAML spec documents to validated {@code OpSpec} records, every error with
 * file:line:col. No ND4J here.
 */
package dev.gradcheck.spec;
