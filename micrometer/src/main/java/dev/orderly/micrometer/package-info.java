/**
 * Micrometer meters for Orderly requests: {@link dev.orderly.micrometer.OrderlyMetrics} is bound once to a
 * {@code MeterRegistry} and hands each request a {@link dev.orderly.api.RequestListener} that feeds it. This module
 * depends on the api and Micrometer only; the api and the engine never see Micrometer.
 */
package dev.orderly.micrometer;
