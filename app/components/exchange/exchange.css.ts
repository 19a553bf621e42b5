import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

const panelBase = {
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  minWidth: 0,
} as const;

/** Trading page: ticker bar on top; book | chart + forms | trades; orders below. */
export const page = style({
  display: "grid",
  gap: "4px",
  padding: "4px",
  gridTemplateColumns: "minmax(250px, 300px) minmax(0, 1fr) minmax(240px, 290px)",
  gridTemplateAreas: `"bar bar bar" "book chart trades" "book forms trades" "orders orders orders"`,
  gridTemplateRows: "auto minmax(380px, auto) auto auto",
  "@media": {
    // Narrower: the member's orders come right after the forms (on a phone they were ~2,800 px down).
    "screen and (max-width: 1100px)": {
      gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
      gridTemplateAreas: `"bar bar" "chart chart" "forms forms" "orders orders" "book trades"`,
    },
    "screen and (max-width: 640px)": {
      gridTemplateColumns: "minmax(0, 1fr)",
      gridTemplateAreas: `"bar" "chart" "forms" "orders" "book" "trades"`,
    },
  },
});

/** The contract page: the spot page's grid (its chart is of the last or the mark price). */
export const contractPage = page;
/** The contract page's link to the whole orders area, beside its open orders. */
export const allOrdersLink = style({ padding: "0 12px", fontSize: "12px", color: vars.color.textMuted });
export const rulesTitle = style({ fontSize: "13px", fontWeight: 600, margin: 0 });
export const rulesCaption = style({ textAlign: "left", fontSize: "12px", color: vars.color.textMuted, padding: "8px 0 4px", fontFamily: vars.font.body });
/** The contract page's leverage form: the number and its button on one line. */
export const leverageForm = style({ display: "flex", flexWrap: "wrap", gap: "8px", alignItems: "end", padding: "8px 12px 0" });

export const area = styleVariants({
  bar: { ...panelBase, gridArea: "bar" },
  book: { ...panelBase, gridArea: "book" },
  chart: { ...panelBase, gridArea: "chart", display: "flex", flexDirection: "column" },
  trades: { ...panelBase, gridArea: "trades" },
  forms: { ...panelBase, gridArea: "forms" },
  orders: { ...panelBase, gridArea: "orders" },
});

export const panelTitle = style({ fontSize: "14px", fontWeight: 600, margin: 0, padding: "10px 12px", borderBottom: `1px solid ${vars.color.border}` });
/** The book's title with its grouping choice (the rows' price step). */
export const bookHead = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  flexWrap: "wrap",
  borderBottom: `1px solid ${vars.color.border}`,
});
/** The book's title inside its head: the head draws the line under both. */
export const bookTitle = style([panelTitle, { borderBottom: "none" }]);
export const groupTabs = style({ display: "flex", gap: "2px", padding: "0 8px", fontFamily: vars.font.mono, fontSize: "11px" });
export const groupTab = style({
  // WCAG 2.2 target size: at least 24 × 24 px.
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minWidth: "24px",
  minHeight: "24px",
  padding: "4px 6px",
  borderRadius: "4px",
  color: vars.color.textMuted,
  textDecoration: "none",
  selectors: { '&[aria-current="true"]': { color: vars.color.text, background: vars.color.border } },
});

// ---- Ticker bar ----
export const bar = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: "8px 24px", padding: "10px 12px" });
export const symbolTitle = style({ fontSize: "20px", fontWeight: 700, margin: 0 });
export const lastPrice = style({ fontSize: "20px", fontWeight: 700, fontFamily: vars.font.mono });
export const stats = style({ display: "flex", flexWrap: "wrap", gap: "4px 20px", margin: 0 });
export const stat = style({ display: "grid", gap: "2px" });
export const statLabel = style({ color: vars.color.textMuted, fontSize: "12px" });
export const statValue = style({ fontFamily: vars.font.mono, fontSize: "13px", margin: 0 });

export const tone = styleVariants({
  up: { color: vars.color.up },
  down: { color: vars.color.down },
  flat: { color: vars.color.text },
});

export const switcher = style({ position: "relative" });
export const switcherSummary = style({
  cursor: "pointer",
  listStyle: "none",
  padding: "6px 10px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  selectors: { "&::-webkit-details-marker": { display: "none" } },
});
export const switcherList = style({
  position: "absolute",
  zIndex: 20,
  top: "calc(100% + 4px)",
  left: 0,
  minWidth: "280px",
  maxHeight: "360px",
  overflowY: "auto",
  margin: 0,
  padding: "4px 0",
  listStyle: "none",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  boxShadow: vars.shadow.menu,
});
export const switcherLink = style({
  display: "grid",
  gridTemplateColumns: "1fr auto auto",
  gap: "12px",
  padding: "8px 12px",
  color: vars.color.text,
  textDecoration: "none",
  fontFamily: vars.font.mono,
  fontSize: "13px",
  selectors: { "&:hover, &:focus-visible": { background: vars.color.surface }, '&[aria-current="page"]': { color: vars.color.accentStrong } },
});

// ---- Tables (book, trades, orders) ----
export const table = style({ width: "100%", borderCollapse: "collapse", fontFamily: vars.font.mono, fontSize: "12px", tableLayout: "fixed" });
globalStyle(`${table} th`, { color: vars.color.textMuted, fontWeight: 400, textAlign: "right", padding: "4px 12px", fontFamily: vars.font.body });
globalStyle(`${table} th:first-child, ${table} td:first-child`, { textAlign: "left" });
globalStyle(`${table} td`, { textAlign: "right", padding: "2px 12px", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" });

export const bookRow = style({ position: "relative" });
/** The depth bar: a background gradient sized by the row's share of the visible depth; light enough (12 %) that prices over it keep 4.5:1 in both themes. */
export const depthAsk = style({
  backgroundImage: `linear-gradient(to left, color-mix(in srgb, ${vars.color.down} 12%, transparent) var(--depth), transparent var(--depth))`,
});
export const depthBid = style({
  backgroundImage: `linear-gradient(to left, color-mix(in srgb, ${vars.color.up} 12%, transparent) var(--depth), transparent var(--depth))`,
});
export const mid = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "baseline",
  padding: "8px 12px",
  borderBlock: `1px solid ${vars.color.border}`,
});
export const midPrice = style({ fontSize: "18px", fontWeight: 700, fontFamily: vars.font.mono });
export const empty = style({ padding: "16px 12px", color: vars.color.textMuted, fontSize: "13px", textAlign: "center" });

// ---- Chart ----
export const chartTools = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "2px",
  padding: "6px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  alignItems: "center",
});
export const periodLink = style({
  padding: "4px 8px",
  borderRadius: vars.radius.small,
  color: vars.color.textMuted,
  textDecoration: "none",
  fontSize: "12px",
  selectors: {
    '&[aria-current="true"]': { color: vars.color.accentStrong, background: vars.color.surfaceRaised, fontWeight: 700 },
    "&:hover": { color: vars.color.text },
  },
});
export const chartBox = style({ position: "relative", flex: 1, minHeight: "360px" });
/** The drawn chart with its axes: prices in a right-hand gutter, times (or a depth's prices) below. */
export const svgFrame = style({ position: "relative", marginRight: "72px", marginBottom: "20px" });
export const chartSvg = style({ display: "block", width: "100%", height: "340px" });
const tick = {
  position: "absolute",
  fontSize: "11px",
  fontFamily: vars.font.mono,
  color: vars.color.textMuted,
  whiteSpace: "nowrap",
  pointerEvents: "none",
} as const;
export const priceTick = style({ ...tick, left: "calc(100% + 6px)", transform: "translateY(-50%)" });
export const timeTick = style({ ...tick, top: "calc(100% + 3px)", transform: "translateX(-50%)" });
/** Every other time on the axis: left out on a phone, where four would overlap. */
export const timeTickMinor = style([timeTick, { "@media": { "screen and (max-width: 640px)": { display: "none" } } }]);
export const chartViews = style({ display: "flex", gap: "2px", marginRight: "8px", paddingRight: "8px", borderRight: `1px solid ${vars.color.border}` });
/** Said over the SVG chart when the interactive one could not be loaded. */
/**
 * The chart's colours as the theme's CSS variables, written out here at build time: the chart
 * reads these four, and importing the theme's whole contract would put it in the shell's chunk on
 * every page (only the trading page uses it in a script).
 */
export const chartColors = { up: vars.color.up, down: vars.color.down, text: vars.color.textMuted, grid: vars.color.border };
export const chartNote = style({ position: "absolute", left: "12px", bottom: "8px", margin: 0, fontSize: "12px", color: vars.color.textMuted });
export const legend = style({ display: "flex", gap: "12px", marginLeft: "auto", fontSize: "11px", fontFamily: vars.font.mono, color: vars.color.textMuted });

// ---- Forms ----
export const typeTabs = style({ display: "flex", gap: "4px", padding: "8px 12px 0", borderBottom: `1px solid ${vars.color.border}` });
export const typeTab = style({
  padding: "8px 12px",
  color: vars.color.textMuted,
  textDecoration: "none",
  fontWeight: 600,
  borderBottom: "2px solid transparent",
  selectors: { '&[aria-current="true"]': { color: vars.color.text, borderBottomColor: vars.color.accent } },
});
export const formsRow = style({
  display: "grid",
  gridTemplateColumns: "1fr 1fr",
  gap: "24px",
  padding: "12px",
  "@media": { "screen and (max-width: 640px)": { gridTemplateColumns: "1fr" } },
});
export const orderForm = style({ display: "grid", gap: "10px", alignContent: "start" });
/** The buy/sell switch a phone shows above its one form. */
export const sideSwitch = style({
  display: "none",
  gridTemplateColumns: "1fr 1fr",
  gap: "4px",
  "@media": { "screen and (max-width: 640px)": { display: "grid" } },
});
const sideLinkBase = {
  padding: "8px",
  textAlign: "center",
  borderRadius: vars.radius.small,
  fontWeight: 700,
  textDecoration: "none",
  color: vars.color.textMuted,
  background: vars.color.surfaceRaised,
} as const;
export const sideLink = styleVariants({
  buy: { ...sideLinkBase, selectors: { '&[aria-current="true"]': { background: vars.color.up, color: vars.color.accentText } } },
  sell: { ...sideLinkBase, selectors: { '&[aria-current="true"]': { background: vars.color.down, color: vars.color.accentText } } },
});
/** The form of the side a phone does not show. */
export const otherSide = style({ "@media": { "screen and (max-width: 640px)": { display: "none" } } });
export const available = style({ display: "flex", justifyContent: "space-between", fontSize: "12px", color: vars.color.textMuted });
/** Deposit, Transfer and the one-step move from funding, under "Available". */
export const fundLinks = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "4px 12px",
  justifyContent: "flex-end",
  fontSize: "12px",
  marginTop: "-4px",
});
// WCAG 2.2 target size: each link and the move button at least 24 px tall.
globalStyle(`${fundLinks} > a, ${fundLinks} > button`, { display: "inline-flex", alignItems: "center", minHeight: "24px" });
export const fundButton = style({
  background: "none",
  border: "none",
  padding: 0,
  font: "inherit",
  color: vars.color.accent,
  textDecoration: "underline",
  cursor: "pointer",
});
export const numberField = style({ display: "grid", gap: "4px" });
export const numberLabel = style({ fontSize: "12px", color: vars.color.textMuted });
export const numberBox = style({
  display: "flex",
  alignItems: "center",
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  selectors: { "&:focus-within": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "1px" } },
});
export const numberInput = style({
  flex: 1,
  minWidth: 0,
  height: "38px",
  padding: "0 10px",
  border: 0,
  background: "transparent",
  color: vars.color.text,
  fontFamily: vars.font.mono,
  textAlign: "right",
  selectors: { "&:focus": { outline: "none" } },
});
export const unit = style({ padding: "0 10px", color: vars.color.textMuted, fontSize: "12px" });
export const fieldError = style({ color: vars.color.danger, fontSize: "12px", margin: 0 });
export const check = style({ display: "flex", alignItems: "center", gap: "8px", fontSize: "13px" });
export const stopRow = style({ display: "grid", gridTemplateColumns: "auto 1fr", gap: "8px", alignItems: "end" });
export const percents = style({ display: "flex", gap: "4px" });
export const percent = style({
  flex: 1,
  padding: "4px 0",
  fontSize: "12px",
  background: vars.color.surfaceRaised,
  color: vars.color.textMuted,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  cursor: "pointer",
});
export const total = style({ display: "flex", justifyContent: "space-between", fontSize: "12px", color: vars.color.textMuted });
/** Fee rates and the order's estimated fee, as a description list of `total` rows. */
export const fees = style({ display: "grid", gap: "4px", margin: 0 });
globalStyle(`${fees} dd`, { margin: 0 });
export const submit = styleVariants({
  buy: {
    height: "42px",
    border: 0,
    borderRadius: vars.radius.small,
    fontWeight: 700,
    color: vars.color.background,
    background: vars.color.up,
    cursor: "pointer",
  },
  sell: {
    height: "42px",
    border: 0,
    borderRadius: vars.radius.small,
    fontWeight: 700,
    color: vars.color.background,
    background: vars.color.down,
    cursor: "pointer",
  },
});
/** The contract form's two direction buttons, side by side. */
export const contractButtons = style({ display: "grid", gridTemplateColumns: "1fr 1fr", gap: "8px" });
/** A position's close button and margin form, wrapping on a phone. */
export const positionActions = style({ display: "flex", flexWrap: "wrap", gap: "6px", alignItems: "center" });
export const marginForm = style({ display: "flex", flexWrap: "wrap", gap: "4px", alignItems: "center" });
/** A position's take profit and stop loss: what is set, and the disclosure with its form. */
export const tpsl = style({ display: "grid", gap: "4px", justifyItems: "start" });
export const tpslDetails = style({ display: "grid", gap: "4px", justifyItems: "start" });
globalStyle(`${tpslDetails} > summary`, { listStyle: "none", display: "inline-block" });
globalStyle(`${tpslDetails} > summary::-webkit-details-marker`, { display: "none" });
export const marginInput = style({
  width: "7em",
  padding: "4px 6px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.mono,
});
export const loginPrompt = style({ padding: "24px 12px", textAlign: "center", display: "grid", gap: "12px", justifyItems: "center" });
export const loginLink = style({
  padding: "10px 24px",
  borderRadius: vars.radius.small,
  background: vars.color.accent,
  color: vars.color.accentText,
  fontWeight: 700,
  textDecoration: "none",
});

// ---- Orders ----
export const ordersHead = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  borderBottom: `1px solid ${vars.color.border}`,
});
/** The member panel's tabs: they scroll sideways inside the panel on a phone, never widen the page. */
export const memberTabs = style([typeTabs, { borderBottom: "none", overflowX: "auto", flex: "1 1 auto", minWidth: 0, whiteSpace: "nowrap" }]);
export const ordersLink = style({ padding: "10px 12px", color: vars.color.accentStrong, fontSize: "13px" });
export const cancelButton = style({
  padding: "2px 10px",
  background: "transparent",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  color: vars.color.text,
  cursor: "pointer",
  fontSize: "12px",
});

/** An operator halted the market: said above the forms, before anything is posted. */
export const haltNotice = style({
  margin: "0 12px 8px",
  padding: "10px 12px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.down}`,
  color: vars.color.text,
  fontSize: "13px",
});
/** The cash / margin switch above the forms of a margin pair, and the margin account's figures beside it. */
export const dealBar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: "4px 16px",
  padding: "8px 12px 0",
  fontSize: "12px",
});
export const dealTabs = style({ display: "flex", gap: "2px", border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.small, padding: "2px" });
export const dealTab = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: "24px",
  padding: "2px 10px",
  borderRadius: vars.radius.small,
  color: vars.color.textMuted,
  textDecoration: "none",
  fontWeight: 600,
  selectors: { '&[aria-current="true"]': { background: vars.color.accent, color: vars.color.accentText } },
});
export const dealFacts = style({ display: "flex", flexWrap: "wrap", gap: "4px 16px", margin: 0, color: vars.color.textMuted });
export const dealFact = style({ display: "flex", gap: "4px" });
export const dealValue = style({ margin: 0, fontFamily: vars.font.mono, color: vars.color.text });
export const dealWarned = style({ color: vars.color.danger, fontWeight: 600 });
export const dealLink = style({ display: "inline-flex", alignItems: "center", minHeight: "24px", color: vars.color.accent });
