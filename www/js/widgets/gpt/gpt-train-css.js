// Shadow-DOM styles of <attn-gpt-train> (kept apart so the element's logic stays short).

export const TRAIN_CSS = `
  .panel { border-top: 1px solid var(--_line); padding-top: 10px; margin-top: 12px; }
  .controls { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: center; }
  .controls button { min-width: 5.5rem; }
  .workers-label { display: inline-flex; gap: 6px; align-items: center; margin-left: auto; font-size: .9rem; }
  .workers { width: 4rem; }
  .stats { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: .9rem; margin: 8px 0; }
  .stats b { font-family: var(--_mono); font-variant-numeric: tabular-nums; font-weight: 600; }
  pre.sample { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 11rem; overflow: auto; margin: 4px 0 0;
    padding: 8px 10px; border-radius: 8px; background: var(--_accent-soft); font-size: .82rem; min-height: 2.6rem; }
  .nomask { display: flex; gap: 8px; align-items: flex-start; margin: 6px 0; }
  .nomask .muted { display: block; }
  .files { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
  .files label.button { border: 1px solid var(--_line); border-radius: 8px; padding: 4px 10px; font-weight: 600; font-size: .9rem; }
  .files label.button:focus-within { outline: 2.5px solid var(--_focus); outline-offset: 2px; }
  .files input[type="file"] { position: absolute; opacity: 0; width: 1px; height: 1px; }
  .status { font-weight: 600; }
  details.how { font-size: .82rem; color: var(--_muted); margin: 0 0 6px; }
  details.how summary { cursor: pointer; width: fit-content; }
  details.how p { margin: 2px 0 0; }
  .offer { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; padding: 8px 10px; margin: 0 0 10px;
    border: 1px solid var(--_accent); border-radius: 8px; background: var(--_accent-soft); }
  .offer[hidden] { display: none; }
  .offer span { flex: 1 1 14rem; font-weight: 600; }
`;
