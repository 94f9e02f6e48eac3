#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader: no build step to forget, and users'
// TypeScript stage plugins load the same way as the built-in ones.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
