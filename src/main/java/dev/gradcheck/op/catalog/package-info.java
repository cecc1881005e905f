/**
 * Internal (no compatibility promise): ND4J's operators as the build recorded them ({@code OpCatalog}, read from
 * op-catalog.json, which {@code op.OpCatalogGenerator} writes at build time), what each takes ({@code OpInfo},
 * {@code ArgInfo}, {@code OpBinding}) and a spec's op names and attributes checked against them
 * ({@code CatalogOps}, {@code AttributeBinder}). The front end's: no ND4J class is reached from here, so list-ops,
 * coverage and validate's name checks start none (a class path without the recorded catalog is scanned by name).
 */
package dev.gradcheck.op.catalog;
