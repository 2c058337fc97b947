/**
 * Splits a quantity into legs of at most `freezeQty` each (exchange quantity freeze, DOMAIN.md §1). With a lot
 * size, every leg but possibly the last is the largest whole number of lots within the freeze limit, so no leg
 * carries a fractional lot when the total is whole lots. Deterministic, so a replayed intent yields the same legs.
 */
export function splitByFreezeQty(quantity: number, freezeQty?: number, lotSize = 1): number[] {
  if (!Number.isInteger(quantity) || quantity <= 0)
    throw new RangeError(`quantity must be a positive integer, got ${quantity}`);
  if (freezeQty === undefined || quantity <= freezeQty) return [quantity];
  const maxLeg = Math.floor(freezeQty / lotSize) * lotSize;
  if (maxLeg <= 0) throw new RangeError(`freeze quantity ${freezeQty} is below one lot of ${lotSize}`);
  const legs: number[] = [];
  let rest = quantity;
  while (rest > maxLeg) {
    legs.push(maxLeg);
    rest -= maxLeg;
  }
  legs.push(rest);
  return legs;
}
