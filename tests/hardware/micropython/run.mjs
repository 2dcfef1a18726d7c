// Runs Python code under MicroPython (the WebAssembly port, from npm) in Node:
//   node run.mjs CODE FILE...
// Each FILE is copied into MicroPython's in-memory file system at the same absolute
// path, so CODE can put the same directories on sys.path as a CPython run does.
// Prints what the code prints; exit status 1 with the Python traceback on an error.
import fs from "fs";
import path from "path";
import { createRequire } from "module";

const moduleDir = process.env.MICROPYTHON_WASM_DIR;
if (!moduleDir) {
  console.error("MICROPYTHON_WASM_DIR is not set (the installed npm package's directory)");
  process.exit(2);
}
const { loadMicroPython } = await import(path.join(moduleDir, "micropython.mjs"));

const [code, ...files] = process.argv.slice(2);
const chunks = [];
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => chunks.push(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function mkdirs(dir) {
  if (dir === "/" || dir === "") return;
  mkdirs(path.dirname(dir));
  try { mp.FS.mkdir(dir); } catch (e) { /* exists */ }
}
for (const file of files) {
  mkdirs(path.dirname(file));
  mp.FS.writeFile(file, fs.readFileSync(file));
}
let status = 0;
try {
  mp.runPython(code);
} catch (error) {
  if (error.name !== "PythonError") throw error;
  process.stderr.write(error.message + "\n");
  status = 1;
}
process.stdout.write(chunks.join(""), () => process.exit(status));
