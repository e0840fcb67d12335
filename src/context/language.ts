/** The languages weir outlines, by file extension: data, read by the parser and the import graph. */
const EXT: Record<string, string> = {
  ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "js", ".py": "python", ".go": "go", ".rs": "rust",
  ".java": "java", ".rb": "ruby", ".rake": "ruby", ".php": "php",
};

/** A path's language by its extension, undefined where weir has no grammar for it. Pure. */
export function languageOf(path: string): string | undefined {
  const m = path.match(/\.[^./\\]+$/);
  return m ? EXT[m[0].toLowerCase()] : undefined;
}
