/**
 * The package version, in one place: the CLI's `--version`, the gateway's MCP server info and the
 * status page all read it. `npm version` updates package.json; a test keeps this constant equal to it.
 */
export const VERSION = '0.1.0';
