/** Moving average of closes over `n` candles (drawing only: numbers are fine for pixels). */
export function movingAverage(closes: number[], n: number): Array<number | "-"> {
  let sum = 0;
  return closes.map((c, i) => {
    sum += c;
    if (i >= n) sum -= closes[i - n]!;
    return i >= n - 1 ? Number((sum / n).toPrecision(8)) : "-";
  });
}

/** The colours of the MA5, MA10 and MA30 lines, in the legend and both charts. */
export const MA_LINES = [
  { n: 5, color: "#f0b90b" },
  { n: 10, color: "#7cc4ff" },
  { n: 30, color: "#c678dd" },
] as const;
