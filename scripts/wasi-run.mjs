#!/usr/bin/env node
// Runs a wasm32-wasip1 program (a test binary cargo built) under Node's WASI
// (node:wasi, preview1):
// `node --single-threaded-gc scripts/wasi-run.mjs prog.wasm [args...]`.
// (With V8's concurrent garbage collector, Node 20.20 crashes with SIGSEGV
// in `KeyedLoadIC_Megamorphic` after tests/suite/umac_rfc.rs's appendix cases
// have passed; with --single-threaded-gc it does not.)
// scripts/test-all makes it the cargo runner
// (CARGO_TARGET_WASM32_WASIP1_RUNNER), so `cargo test --target wasm32-wasip1`
// runs the suite here.
//
// The tests open files by absolute paths compiled in from CARGO_MANIFEST_DIR
// (crates/unimac/../unimac-cli/vectors, ../../fuzz/corpus, and
// ../../../shared/vectors next to the checkout): the directory holding the
// checkout is preopened at its own path, so those paths resolve unchanged,
// and so is the real directory of a `shared` symbolic link next to it.
// Arguments and the environment pass through (UNIMAC_FORCE_PORTABLE,
// UNIMAC_DISABLE, ...); the program's exit status is this process's.
// wasip1 has no threads and no processes: the library works on the calling
// thread there.
import { readFile } from "node:fs/promises";
import { realpathSync, existsSync } from "node:fs";
import { dirname, resolve, basename } from "node:path";
import { fileURLToPath } from "node:url";
import { argv, env, exit } from "node:process";
import { WASI } from "node:wasi";

const [prog, ...args] = argv.slice(2);
if (!prog) {
    console.error("usage: wasi-run.mjs PROGRAM.wasm [ARGS...]");
    exit(2);
}
const checkout = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const around = dirname(checkout);
const preopens = { [around]: around };
const shared = resolve(around, "shared");
if (existsSync(shared)) {
    const real = realpathSync(shared);
    if (!real.startsWith(around + "/")) preopens[shared] = real;
}

const wasi = new WASI({
    version: "preview1",
    args: [basename(prog), ...args],
    env,
    preopens,
    returnOnExit: true,
});
let module;
try {
    module = await WebAssembly.compile(await readFile(prog));
} catch (e) {
    console.error(`wasi-run: cannot load ${prog}: ${e.message}`);
    exit(2);
}
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
let code;
try {
    code = wasi.start(instance);
} catch (e) {
    // A trap: a Rust panic aborts (wasm has no unwinding) through `unreachable`.
    console.error(`wasi-run: ${prog} trapped: ${e.message}`);
    code = 134;
}
exit(code);
