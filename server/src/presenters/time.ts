/** Epoch ms → ISO-8601 UTC (the wire format of every timestamp); null stays null. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Epoch ms → ISO-8601 UTC. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
