/**
 * Deliberately bad (and a few good) classes that show each architecture rule can fail. They mirror the production
 * layout ({@code api}, {@code engine}, {@code engine.internal}, {@code sim}, and {@code outside} for any other module)
 * so that {@code RulesCatchViolationsTest} runs exactly the same rule factories as {@code ArchitectureTest}, with
 * {@code Layout.VIOLATIONS} instead of {@code Layout.ORDERLY}. Nothing here is ever run; the rules read the class
 * files only, and the production rules never import this package.
 */
package dev.orderly.archtests.violations;
