// Number → colour. Colour-blind-safe ColorBrewer ramps:
//   signed:  blue (negative) – near-white (0) – orange (positive)
//            (the blue half of RdBu and the orange half of PuOr)
//   weights: sequential Purples for values in 0..1
// The text colour of each cell is picked for contrast against its fill.
// This module only maps numbers it is given to colours: no attention math.

const SIGNED = [
  '#2166ac', '#4393c3', '#92c5de', '#d1e5f0', '#f7f7f7',
  '#fee0b6', '#fdb863', '#e08214', '#b35806',
];
const WEIGHTS = [
  '#fcfbfd', '#efedf5', '#dadaeb', '#bcbddc', '#9e9ac8',
  '#807dba', '#6a51a3', '#54278f', '#3f007d',
];
const RAMPS = { signed: SIGNED, weights: WEIGHTS };

// Pure black: of black and white, the better always contrasts at least √21 ≈ 4.58 with the
// fill (WCAG AA asks 4.5 for text); a softer black (#14161c) fell to 4.4 on mid tones.
const DARK_TEXT = '#000000';
const LIGHT_TEXT = '#ffffff';

const hexToRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

const RGB = Object.fromEntries(
  Object.entries(RAMPS).map(([name, stops]) => [name, stops.map(hexToRgb)]),
);

function channelLuminance(c) {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function luminance([r, g, b]) {
  return 0.2126 * channelLuminance(r) + 0.7152 * channelLuminance(g) + 0.0722 * channelLuminance(b);
}

/** Picks black-ish or white text, whichever contrasts more with `rgb`. */
const DARK_LUMINANCE = luminance(hexToRgb(DARK_TEXT));

function textFor(rgb) {
  const l = luminance(rgb);
  const whiteContrast = 1.05 / (l + 0.05);
  const darkContrast = (l + 0.05) / (DARK_LUMINANCE + 0.05);
  return whiteContrast > darkContrast ? LIGHT_TEXT : DARK_TEXT;
}

/** Interpolates a ramp at position p in [0, 1]. */
function sample(stops, p) {
  const x = Math.min(1, Math.max(0, p)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return stops[i].map((c, j) => Math.round(c + (stops[i + 1][j] - c) * f));
}

/**
 * Colours for a cell: `{ bg, fg }` as CSS colours.
 * palette "signed": `value / range` in [-1, 1] (range = largest |value| shown);
 * palette "weights": value in [0, 1]. Non-finite values get a neutral grey.
 */
export function cellColours(palette, value, range = 1) {
  const stops = RGB[palette];
  if (!stops || !Number.isFinite(value)) return { bg: '', fg: '' };
  let p;
  if (palette === 'signed') {
    p = range > 0 ? 0.5 + 0.5 * (value / range) : 0.5;
  } else {
    p = value;
  }
  const rgb = sample(stops, p);
  return { bg: `rgb(${rgb.join(' ')})`, fg: textFor(rgb) };
}

/** Largest finite |value| in `data` (the colour range of a signed matrix). */
export function colourRange(data) {
  let m = 0;
  for (const v of data) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** A CSS linear-gradient of a whole ramp, for legends. */
export function rampGradient(palette) {
  const stops = RAMPS[palette] ?? [];
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
