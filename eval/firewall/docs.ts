/**
 * Held-out documentation: the READMEs of 80 (and eight lists of 80 more) widely used npm packages that weir does not depend on,
 * listed here on 2026-12-01 (fifth session) before any change of that session to the firewall and
 * never used for training or thresholds. They are real text written for people, by other people, so
 * every flag on them is a false positive. The READMEs are not committed: `bun eval/firewall/docs.ts`
 * fetches each package's tarball from the npm registry (`npm pack`) into a cache outside the
 * repository (WEIR_DOCS_CACHE, else the system temp dir) and keeps only the README.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FirewallText } from "./corpus.ts";

export const DOC_PACKAGES = [
  "react", "vue", "lodash", "axios", "webpack", "vite", "eslint", "prettier", "jest", "mocha",
  "chai", "moment", "dayjs", "date-fns", "uuid", "commander", "yargs", "inquirer", "ora", "dotenv",
  "jsonwebtoken", "bcrypt", "mongoose", "pg", "mysql2", "redis", "ioredis", "sequelize", "knex", "socket.io",
  "ws", "node-fetch", "got", "cheerio", "puppeteer", "sharp", "multer", "passport", "helmet", "morgan",
  "nodemon", "pm2", "rimraf", "mkdirp", "fs-extra", "semver", "minimist", "rxjs", "redux", "zustand",
  "immer", "classnames", "tailwindcss", "postcss", "sass", "husky", "lint-staged", "concurrently", "cross-env", "yup",
  "joi", "nanoid", "marked", "highlight.js", "handlebars", "ejs", "pug", "bluebird", "async", "underscore",
  "ramda", "three", "d3", "chart.js", "langchain", "openai-edge", "ollama", "@google/generative-ai", "ai", "llamaindex",
];

/**
 * A second list, written after the first was scored (fifth session) and before the changes that
 * followed, fetched and scored once at the end: its figure is the untouched one for those changes.
 */
export const DOC_PACKAGES_2 = [
  "next", "svelte", "jquery", "bootstrap", "graphql", "@apollo/client", "typeorm", "drizzle-orm", "kysely", "better-sqlite3",
  "mongodb", "@aws-sdk/client-s3", "firebase", "stripe", "twilio", "nodemailer", "bcryptjs", "crypto-js", "validator", "luxon",
  "qs", "query-string", "superagent", "ky", "msw", "nock", "supertest", "sinon", "vitest", "playwright",
  "cypress", "ava", "esbuild", "rollup", "parcel", "ts-node", "tsx", "turbo", "lerna", "react-router",
  "@tanstack/react-query", "swr", "formik", "react-hook-form", "styled-components", "@emotion/react", "framer-motion", "gsap", "winston", "pino",
  "chokidar", "minimatch", "micromatch", "execa", "shelljs", "zx", "boxen", "figlet", "cli-table3", "ink",
  "meow", "cac", "enquirer", "prompts", "@langchain/openai", "cohere-ai", "@mistralai/mistralai", "groq-sdk", "replicate", "@huggingface/inference",
  "gpt-tokenizer", "js-tiktoken", "@ai-sdk/openai", "openai-agents", "@openai/agents", "mcp-remote", "fastmcp", "@vercel/og", "llm-guard", "promptfoo",
];

/**
 * A third list, written after the second was scored and before the word-vector features (fifth
 * session), checked against every other list and the installed packages; scored once at the end.
 */
export const DOC_PACKAGES_3 = [
  "express-session", "passport-local", "cookie-parser", "http-proxy-middleware", "node-cache", "p-limit", "p-queue", "async-retry", "pretty-bytes", "filesize",
  "slugify", "camelcase", "change-case", "pluralize", "he", "sanitize-html", "dompurify", "xss", "marked-terminal", "turndown",
  "showdown", "front-matter", "gray-matter", "handlebars-helpers", "mustache", "liquidjs", "eta", "sortablejs", "dragula", "hammerjs",
  "swiper", "slick-carousel", "leaflet", "mapbox-gl", "openlayers", "cesium", "pixi.js", "phaser", "babylonjs", "matter-js",
  "tone", "howler", "video.js", "hls.js", "plyr", "quill", "tinymce", "ckeditor5", "codemirror", "monaco-editor",
  "prosemirror-view", "slate", "draft-js", "lexical", "tiptap", "@tiptap/core", "fuse.js", "lunr", "flexsearch", "minisearch",
  "algoliasearch", "meilisearch", "typesense", "elasticsearch", "@elastic/elasticsearch", "kafkajs", "amqplib", "nats", "mqtt", "zeromq",
  "grpc", "@grpc/grpc-js", "protobufjs", "avsc", "msgpack-lite", "bson", "uuid-random", "shortid", "cuid", "ulid",
];

/**
 * A fourth list, written on 2026-12-01 (sixth session) before any change of that session to the
 * firewall: packages of the kinds the other lists miss (web servers, view libraries, validators,
 * stores, queues, schedulers, documents, colours, numbers, parsers), checked against every other list,
 * the training list (by name, whatever its pinned version) and the installed packages, taken evenly
 * from 138 candidates; scored once at the end.
 */
export const DOC_PACKAGES_4 = [
  "hapi", "koa-router", "polka", "@hapi/hapi", "restify", "h3", "itty-router", "elysia", "lit", "handlebars-layouts",
  "preact", "solid-js", "alpinejs", "petite-vue", "inferno", "riot", "stimulus", "valibot", "runtypes", "class-validator",
  "reflect-metadata", "tsyringe", "typedi", "lowdb", "pouchdb", "idb", "localforage", "quick-lru", "level", "rocksdb",
  "sqlite3", "alasql", "mikro-orm", "objection", "waterline", "pg-promise", "postgres", "tedious", "cassandra-driver", "htmx.org",
  "bee-queue", "superstruct", "cron", "later", "croner", "dexie", "keyv", "jspdf", "sql.js", "papaparse",
  "csv-stringify", "fast-csv", "fast-xml-parser", "yaml", "ini", "color", "tinycolor2", "kleur", "ansi-colors", "colorette",
  "progress", "log-update", "cli-spinners", "accounting", "big.js", "decimal.js", "mathjs", "simple-statistics", "react-i18next", "pdf-lib",
  "csv-parse", "p-retry", "backoff", "exponential-backoff", "opossum", "happy-dom", "i18next", "htmlparser2", "archiver", "yauzl",
];

/**
 * A fifth list, written on 2026-12-01 (seventh session) after the nineteenth held-out set was scored
 * (with the twentieth, for a change not made; scored once on the shipped model): state stores, tables
 * and grids, canvases and animation, editors' engines, schemas and functional libraries, dates,
 * schedulers, cloud storage, documents, loggers, test runners, release and build tools; checked
 * against every other list, the training list (by name) and the installed packages; scored once.
 */
export const DOC_PACKAGES_5 = [
  "connect-redis", "nitro", "vuex", "mobx", "jotai", "recoil", "valtio", "xstate", "effector", "nanostores",
  "react-native", "expo", "react-table", "ag-grid-community", "handsontable", "tabulator-tables", "p5", "paper", "fabric", "konva",
  "two.js", "anime.js", "lottie-web", "ace-builds", "linkedom", "typebox", "io-ts", "fp-ts", "effect", "neverthrow",
  "purify-ts", "true-myth", "date-fns-tz", "timeago.js", "chrono-node", "rrule", "ical.js", "i18n", "node-cron", "node-schedule",
  "bree", "aws-sdk", "@google-cloud/storage", "@azure/storage-blob", "minio", "cloudinary", "canvas", "pdfmake", "docx", "mammoth",
  "memcached", "loglevel", "signale", "consola", "npmlog", "bunyan", "tap", "uvu", "jasmine", "karma",
  "testcafe", "webdriverio", "nightwatch", "puppeteer-core", "commitizen", "standard-version", "semantic-release", "changesets", "release-it", "np",
  "@biomejs/biome", "oxlint", "stylelint", "markdownlint", "grunt", "gulp", "browserify", "snowpack", "terser", "uglify-js",
];

/**
 * A sixth list, written on 2026-12-01 (eighth session) with the twenty-second held-out set, before any
 * change of that session to the firewall: build and code tools, native and hardware bindings, page
 * widgets and effects, files and compression, crypto and sign-in, HTTP clients and servers' parts,
 * media, queues and settings; checked against every other list, the training list (by name) and the
 * installed packages; scored once at the end.
 */
export const DOC_PACKAGES_6 = [
  "ts-loader", "style-loader", "vite-plugin-pwa", "acorn", "espree", "recast", "jscodeshift", "ts-morph", "typedoc", "jsdoc",
  "@storybook/react", "nx", "npm-check-updates", "depcheck", "knip", "madge", "dependency-cruiser", "size-limit", "node-gyp", "node-addon-api",
  "nan", "serialport", "johnny-five", "usb", "electron-builder", "@capacitor/core", "sweetalert2", "toastify-js", "notyf", "tippy.js",
  "@popperjs/core", "@floating-ui/dom", "micromodal", "a11y-dialog", "focus-trap", "tabbable", "lenis", "aos", "typed.js", "countup.js",
  "tsparticles", "canvas-confetti", "qrcode", "jsbarcode", "html2canvas", "file-saver", "fflate", "lz-string", "crc", "tweetnacl",
  "node-forge", "openpgp", "argon2", "otplib", "speakeasy", "passport-jwt", "oidc-client-ts", "next-auth", "lucia", "@casl/ability",
  "rate-limiter-flexible", "mime", "busboy", "formidable", "needle", "phin", "wretch", "redaxios", "graphql-request", "urql",
  "simple-peer", "peerjs", "fluent-ffmpeg", "music-metadata", "wavesurfer.js", "bottleneck", "node-notifier", "conf", "rss-parser", "ua-parser-js",
];

/**
 * A seventh list, written on 2026-12-01 (eighth session) after the twenty-second set and the sixth
 * list were scored and before the changes that followed (the rules' reading of code comments):
 * servers' middleware and GraphQL, networks and processes, system information, files, globs and
 * paths, temp files and locks, clipboard and keys, archives and encodings; checked against every
 * other list, the training list (by name) and the installed packages; scored once.
 */
export const DOC_PACKAGES_7 = [
  "graphql-yoga", "@apollo/server", "type-graphql", "@pothos/core", "dataloader", "json-schema", "openapi-types", "@fastify/cors", "fastify-plugin", "express-validator",
  "celebrate", "connect-flash", "csurf", "helmet-csp", "hpp", "express-fileupload", "serve-favicon", "vhost", "ip", "netmask",
  "cidr-tools", "dns-packet", "mdns", "bonjour-service", "get-port", "kill-port", "tree-kill", "ps-list", "pidusage", "systeminformation",
  "os-utils", "node-os-utils", "diskusage", "check-disk-space", "du", "tempy", "temp", "graceful-fs", "lockfile", "steno",
  "chokidar-cli", "watchpack", "sane", "tiny-glob", "picomatch", "anymatch", "braces", "fill-range", "to-regex-range", "glob-parent",
  "normalize-path", "slash", "upath", "pathe", "cpy", "copyfiles", "ncp", "move-file", "make-dir", "del",
  "trash", "open-cli", "xdg-open", "default-browser", "clipboard", "copy-to-clipboard", "screenfull", "fscreen", "keymaster", "mousetrap",
  "hotkeys-js", "tinykeys", "decompress", "tar-stream", "adm-zip", "chardet", "jschardet", "cli-truncate", "node-stream-zip", "yazl",
];

/**
 * An eighth list, written on 2026-12-01 (eighth session) after the seventh was scored and before the
 * change that followed (GitHub's words — an issue, a pull request — as words of the software, where
 * a command to make something new had read "create a pull request" as a task of its own): view
 * components, front-end frameworks and site generators, testing and coverage, benchmarks and
 * profilers, logging, tracing and metrics; checked against every other list, the training list (by
 * name) and the installed packages; scored once.
 */
export const DOC_PACKAGES_8 = [
  "react-select", "react-dropzone", "react-modal", "react-toastify", "react-helmet", "react-icons", "react-markdown", "react-player", "react-window", "react-virtualized",
  "react-beautiful-dnd", "react-dnd", "react-spring", "react-use", "react-intl", "react-datepicker", "react-color", "react-slick", "react-tooltip", "react-transition-group",
  "vuetify", "quasar", "element-plus", "naive-ui", "primevue", "@angular/core", "@angular/cli", "rxfire", "ngx-translate", "svelte-kit",
  "@sveltejs/kit", "astro", "remix", "@remix-run/react", "eleventy", "@11ty/eleventy", "nextra", "vitepress", "storybook-addon-designs", "chromatic",
  "jest-dom", "@testing-library/react", "@testing-library/jest-dom", "@testing-library/user-event", "c8", "nyc", "istanbul", "codecov", "coveralls", "benchmark",
  "tinybench", "mitata", "autocannon", "artillery", "k6", "clinic", "0x", "why-is-node-running", "leakage", "memwatch-next",
  "heapdump", "v8-profiler-next", "pino-pretty", "winston-daily-rotate-file", "log4js", "morgan-body", "express-winston", "cls-hooked", "async-local-storage", "continuation-local-storage",
  "opentelemetry", "@sentry/node", "dd-trace", "newrelic", "elastic-apm-node", "prom-client", "hot-shots", "statsd-client", "graphql-ws", "subscriptions-transport-ws",
];

/**
 * A ninth list (ninth session, 2026-12-02), written before any change of that session to the firewall
 * and not scored until its end: spreadsheets, documents and images, geometry and maps, numbers and
 * maths, language processing and search, queues and schedulers, data structures and graphs, diagrams
 * and markup, parsers of config formats, cryptography, identifiers and text helpers; checked against
 * every other list, the training list (by name) and the installed packages.
 */
export const DOC_PACKAGES_9 = [
  "xlsx", "exceljs", "pdfkit", "jimp", "cannon-es", "@babylonjs/core", "ol", "@turf/turf", "proj4", "geolib",
  "bignumber.js", "numeral", "currency.js", "fraction.js", "complex.js", "ml-matrix", "brain.js", "@tensorflow/tfjs", "natural", "compromise",
  "franc", "wink-nlp", "sentiment", "string-similarity", "elasticlunr", "bull", "bullmq", "agenda", "limiter", "cacheable-request",
  "immutable", "mori", "collections", "buckets-js", "js-sdsl", "heap", "priorityqueuejs", "tinyqueue", "rbush", "kdbush",
  "graphlib", "ngraph.graph", "cytoscape", "vis-network", "sigma", "dagre", "elkjs", "mermaid", "plantuml-encoder", "katex",
  "mathjax", "asciidoctor", "remark", "rehype", "unified", "mdast-util-to-string", "markdown-it", "jsdom", "parse5", "xml2js",
  "xmlbuilder2", "js-yaml", "toml", "@iarna/toml", "json5", "hjson", "libsodium-wrappers", "scrypt-js", "oauth4webapi", "simple-oauth2",
  "grant", "hashids", "sqids", "short-uuid", "@paralleldrive/cuid2", "ksuid", "transliteration", "inflection", "humanize-duration", "libphonenumber-js",
];

/**
 * A tenth list (tenth session), written after the ninth was scored and before any change of this
 * session to the firewall: animation and charts, editors and forms, workers and queues, servers and
 * proxies, cryptography, games and music notation, data grids, terminals, globbing and archives, mail.
 * Checked against every list above, the training list and the installed packages. Scored once at the end.
 */
export const DOC_PACKAGES_10 = [
  "animejs", "echarts", "recharts", "prosemirror-model", "pdfjs-dist", "base64-js", "nunjucks", "koa", "envalid", "clipanion",
  "listr2", "@faker-js/faker", "comlink", "piscina", "workerpool", "prisma", "@msgpack/msgpack", "inversify", "@mui/material", "antd",
  "lucide-react", "vue-router", "@dnd-kit/core", "tsup", "@changesets/cli", "serve", "http-server", "http-proxy", "compression", "@noble/hashes",
  "@noble/curves", "popmotion", "scrollreveal", "flickity", "gridjs", "datatables.net", "list.js", "interactjs", "midi-writer-js", "vexflow",
  "abcjs", "kaboom", "excalibur", "rot-js", "@formatjs/intl", "vee-validate", "vuelidate", "final-form", "react-final-form", "p-throttle",
  "idb-keyval", "nedb", "rxdb", "socket.io-client", "toad-scheduler", "bwip-js", "tesseract.js", "face-api.js", "d3-scale", "topojson-client",
  "vega-lite", "plotly.js", "apexcharts", "highcharts", "cli-highlight", "blessed", "ink-spinner", "terminal-kit", "globby", "fast-glob",
  "tar", "unzipper", "striptags", "fastest-levenshtein", "diff-match-patch", "pretty-ms", "email-validator", "mailgun.js", "@sendgrid/mail", "tslog",
];

/**
 * An eleventh list (eleventh session, 2026-12-02), written after the tenth was scored and before any
 * change of this session to the firewall: serialisation and object helpers, events, state stores,
 * styling and colours, galleries, lazy loading and images, URLs, cookies and fetch polyfills, promise
 * helpers, dates and calendars, translations and numbers, payments, sign-in and mail. 176 candidates
 * checked against every list above, the training list (by name) and the installed packages, and
 * against the registry (three did not exist); 80 taken evenly from the 137 left. Scored once at the end.
 */
export const DOC_PACKAGES_11 = [
  "json-stable-stringify", "flatted", "devalue", "lodash.merge", "dequal", "just-diff", "get-value", "set-value", "mitt", "emittery",
  "pubsub-js", "rxjs-compat", "@reduxjs/toolkit", "redux-thunk", "redux-persist", "normalizr", "yup-locales", "@stitches/react", "goober", "@vanilla-extract/css",
  "windicss", "twin.macro", "tailwind-merge", "class-variance-authority", "chroma-js", "d3-color", "colord", "sortable-tablesort", "masonry-layout", "packery",
  "lazysizes", "vanilla-lazyload", "photoswipe", "glightbox", "medium-zoom", "viewerjs", "pica", "thumbhash", "exif-reader", "exifr",
  "image-size", "set-cookie-parser", "url-parse", "psl", "is-url", "normalize-url", "jsurl", "form-data", "isomorphic-fetch", "whatwg-fetch",
  "node-abort-controller", "p-timeout", "p-all", "p-series", "wait-on", "spacetime", "tinydate", "ical-generator", "cronstrue", "date-holidays",
  "business-days-js", "rosetta", "polyglot", "node-polyglot", "numbro", "paypal-rest-sdk", "square", "razorpay", "coinbase-commerce-node", "auth0",
  "@auth0/auth0-react", "@okta/okta-auth-js", "grant-express", "jwt-decode", "oauth", "email-templates", "juice", "@react-email/components", "imapflow", "emailjs",
];

/**
 * A twelfth list (eleventh session), written after the eleventh was scored and before the changes
 * that followed: WebGL and audio, routers and state machines, tables, charts and maps, markdown and
 * syntax highlighting, servers' parts, databases, sign-in and sessions, command-line frameworks,
 * mock file systems and test helpers, terminal output, package and environment helpers, countries and
 * time zones, cryptography and chains, 3D and SVG. 139 candidates checked against every list above,
 * the training list (by name), the installed packages and the registry (two did not exist); 80 taken
 * evenly from the 119 left. Scored once at the end.
 */
export const DOC_PACKAGES_12 = [
  "regl", "ogl", "twgl.js", "standardized-audio-context", "robot3", "navigo", "universal-router", "@tanstack/table-core", "@tanstack/virtual-core", "frappe-charts",
  "uplot", "c3", "maplibre-gl", "micromark", "markdown-to-jsx", "prismjs", "refractor", "micro", "@fastify/helmet", "zapatos",
  "pg-pool", "dynamoose", "passport-google-oauth20", "iron-session", "cookie-session", "sade", "citty", "@oclif/core", "vorpal", "gluegun",
  "ink-text-input", "memfs", "mock-fs", "wireit", "testdouble", "rewire", "jest-extended", "tsd", "picocolors", "xdg-basedir",
  "read-pkg", "load-json-file", "detect-indent", "detect-newline", "ci-info", "is-docker", "username", "public-ip", "is-online", "camelcase-keys",
  "filenamify", "sanitize-filename", "entities", "html-entities", "wordwrap", "word-wrap", "log-symbols", "figures", "node-emoji", "twemoji",
  "countries-list", "i18n-iso-countries", "iso-639-1", "country-state-city", "zipcodes", "us-states", "timezone-support", "countries-and-timezones", "node-rsa", "elliptic",
  "ethers", "web3", "bitcoinjs-lib", "@solana/web3.js", "three-stdlib", "@react-three/fiber", "cannon", "zdog", "@svgdotjs/svg.js", "snapsvg",
];

/**
 * The thirteenth list (twelfth session, 2026-12-02), written before that session's changes to the
 * firewall: ORMs and query builders, queues and retries, schemas, images, mail servers, phonetics and
 * transliteration, money and cards, IP addresses and geography, audio, MIDI and video streaming,
 * WebRTC, physics and WebGL engines, neural networks and computer vision, QR codes and barcodes.
 * Checked against every list above, the training list, the installed packages and the registry (each
 * answers `npm view`); 80 taken evenly from the 114 candidates left.
 */
export const DOC_PACKAGES_13 = [
  "bookshelf", "sequelize-typescript", "slonik", "fastq", "cockatiel", "@sinclair/typebox", "ow", "moment-timezone", "pngjs", "jpeg-js",
  "probe-image-size", "blurhash", "vega", "node-tar", "sockjs", "engine.io", "smtp-server", "mjml", "playwright-core", "css-select",
  "jstat", "stopword", "js-search", "leven", "fast-levenshtein", "talisman", "double-metaphone", "speakingurl", "url-slug", "diacritics",
  "unidecode", "any-ascii", "dinero.js", "money-math", "currency-codes", "creditcard-generator", "card-validator", "google-libphonenumber", "is-email", "disposable-email-domains",
  "ip-regex", "is-ip", "ip-cidr", "ip6addr", "maxmind", "haversine", "deck.gl", "kepler.gl", "pizzicato", "@tonejs/midi",
  "jsmidgen", "node-id3", "ffmpeg-static", "shaka-player", "mux.js", "webrtc-adapter", "mediasoup", "janode", "twilio-video", "agora-rtc-sdk-ng",
  "kurento-client", "sip.js", "p2", "box2d-wasm", "oimo", "playcanvas", "aframe", "troika-three-text", "postprocessing", "gl-matrix",
  "geoip-lite", "synaptic", "ml5", "onnxruntime-web", "neataptic", "ml-kmeans", "hnswlib-node", "opencv.js", "qrcode-generator", "quagga",
];

/**
 * The fourteenth list (twelfth session, 2026-12-02), written after the thirteenth was scored and the
 * changes that followed it were made, before anything was measured on it: scrapers and feeds, XML and
 * config formats, terminal interfaces and prompts, diffs and patches, state machines, GraphQL servers,
 * job queues and message brokers, microservice frameworks, logging and metrics, HTTP test tools,
 * accessibility and CSS tooling. Checked against every list above, the training list, the installed
 * packages and the registry (two did not exist); 80 taken evenly from the 84 left.
 */
export const DOC_PACKAGES_14 = [
  "node-fetch-retry", "got-scraping", "crawlee", "apify", "simplecrawler", "x-ray", "osmosis", "metascraper", "open-graph-scraper", "unfurl",
  "feed", "feedparser", "podcast", "sax", "libxmljs2", "xpath", "properties-reader", "dotenv-expand", "env-var", "convict",
  "tabtab", "omelette", "minimist-options", "blessed-contrib", "table", "columnify", "cli-boxes", "inquirer-autocomplete-prompt", "prompts-ncu", "terminal-link",
  "ansi-escapes", "supports-hyperlinks", "slice-ansi", "diff2html", "jsdiff", "deep-diff", "microdiff", "fast-json-patch", "rfc6902", "seamless-immutable",
  "apollo-server", "mercurius", "pothos", "nexus", "graphql-shield", "redis-om", "kue", "node-resque", "rsmq", "amqp-connection-manager",
  "rascal", "moleculer", "seneca", "hemera", "nest-winston", "roarr", "node-statsd", "appmetrics", "loadtest", "pactum",
  "chakram", "superagent-mock", "fetch-mock", "sinon-chai", "chai-http", "cypress-axe", "pa11y", "axe-core", "lighthouse-ci", "html-validate",
  "stylelint-order", "postcss-preset-env", "cssnano", "purgecss", "lightningcss", "node-html-markdown", "linkinator", "broken-link-checker", "sitemap-generator", "html-minifier-terser",
];

/**
 * The fifteenth list (twelfth session, 2026-12-02), written after the fourteenth was scored and the
 * changes that followed it were made, before anything was measured on it: hashing and encodings,
 * peer-to-peer and CRDTs, browser storage and cookies, message formats and plurals, document parsers,
 * image comparison, globes and geodata, MIDI and music notation, CSS processors and code transforms.
 * Checked against every list above, the training list, the installed packages and the registry (four
 * did not exist); all 78 left are taken.
 */
export const DOC_PACKAGES_15 = [
  "noble-hashes", "node-jose", "qrcode-terminal", "hi-base32", "base-x", "bs58", "multiformats", "cids", "ipfs-http-client", "orbit-db",
  "hyperswarm", "hypercore", "autobase", "corestore", "libp2p", "gun", "yjs", "automerge", "sharedb", "store2",
  "lockr", "js-cookie", "universal-cookie", "tough-cookie", "i18next-browser-languagedetector", "globalize", "messageformat", "intl-messageformat", "make-plural", "cldr-data",
  "fluent", "@fluent/bundle", "gettext-parser", "jed", "tesseract-wasm", "pdf-parse", "officeparser", "textract", "epub-gen", "epubjs",
  "pptxgenjs", "sharp-phash", "image-hash", "pixelmatch", "looks-same", "resemblejs", "odiff-bin", "jimp-compact", "gm", "imagemin",
  "svgo", "three-globe", "globe.gl", "cobe", "world-atlas", "d3-geo", "geojson-vt", "mapshaper", "shpjs", "tone-rhythm",
  "soundfont-player", "webmidi", "jzz", "midi-parser-js", "opensheetmusicdisplay", "tonal", "teoria", "stylus", "less", "sass-loader",
  "postcss-nested", "autoprefixer-cli", "css-tree", "csso", "prettier-plugin-tailwindcss", "ast-types", "esquery", "magic-string",
];

/**
 * The sixteenth list (twelfth session, 2026-12-02), written after the fifteenth was scored and the
 * change that followed it was made, before anything was measured on it: web frameworks and their
 * plugins, API schemas and mock servers, ORMs and migrations, test containers and ports, scripts and
 * release tooling, bundlers and runners, monorepo tools, calendars, payments, messaging and chat
 * bots, git hosting clients. Checked against every list above, the training list, the installed
 * packages and the registry (six did not exist); 80 taken evenly from the 87 left.
 */
export const DOC_PACKAGES_16 = [
  "@fastify/jwt", "@fastify/multipart", "@fastify/rate-limit", "@fastify/swagger", "@fastify/websocket", "koa-body", "koa-static", "@hapi/joi", "@hapi/boom", "@trpc/server",
  "@trpc/client", "openapi-typescript", "redoc", "express-openapi-validator", "oas", "json-server", "miragejs", "@prisma/client", "@mikro-orm/core", "knex-migrate",
  "umzug-cli", "db-migrate", "node-pg-migrate", "mongoose-paginate-v2", "mongodb-memory-server", "redis-mock", "ioredis-mock", "testcontainers", "@testcontainers/postgresql", "wait-port",
  "detect-port", "portfinder", "nodemon-webpack-plugin", "npm-run-all", "dotenv-cli", "shx", "del-cli", "@commitlint/cli", "auto-changelog", "verdaccio",
  "np-cli", "pkg", "nexe", "@vercel/ncc", "esbuild-register", "ts-node-dev", "sucrase", "rush", "pnpm", "yarn-deduplicate",
  "syncpack", "agenda-rest", "node-cron-tz", "cron-parser", "node-ical", "tsdav", "caldav", "stripe-node", "braintree", "@mollie/api-client",
  "gocardless-nodejs", "plaid", "postmark", "resend", "nodemailer-mjml", "@slack/web-api", "@slack/bolt", "discord.js", "telegraf", "botkit",
  "@octokit/rest", "@octokit/graphql", "probot", "gitlab", "@gitbeaker/rest", "bitbucket", "simple-git", "isomorphic-git", "nodegit", "git-url-parse",
];

/**
 * The seventeenth list (twelfth session, 2026-12-02), written after the sixteenth was scored and the
 * change that followed it was made, before anything was measured on it: front-end forms, pickers,
 * grids, animation, carousels, editors, charts and frameworks, keyboard and clipboard helpers,
 * browser and device detection, hashes and ids, fake data and case conversion. Checked against every
 * list above, the training list, the installed packages and the registry (two did not exist); all
 * 72 left are taken (most popular front-end packages are on earlier lists).
 */
export const DOC_PACKAGES_17 = [
  "react-router-dom", "wouter", "@reach/router", "downshift", "react-day-picker", "react-big-calendar", "fullcalendar", "@fullcalendar/core", "@lottiefiles/react-lottie-player", "glide",
  "@glidejs/glide", "embla-carousel", "keen-slider", "splide", "@splidejs/splide", "tiny-slider", "trix", "victory", "nivo", "@nivo/core",
  "react-vis", "billboard.js", "dygraphs", "lightweight-charts", "pinia", "nuxt", "ant-design-vue", "@solidjs/router", "htm", "keyboardjs",
  "clipboard-polyfill", "detect-browser", "bowser", "platform", "mobile-detect", "is-mobile", "device-detector-js", "express-useragent", "useragent", "ismobilejs",
  "current-device", "fingerprintjs", "@fingerprintjs/fingerprintjs", "clientjs", "imurmurhash", "murmurhash3js", "xxhashjs", "hash-wasm", "crc-32", "adler-32",
  "object-hash", "nanoid-dictionary", "flake-idgen", "snowflake-id", "faker", "chance", "casual", "json-schema-faker", "mockjs", "random-words",
  "lorem-ipsum", "txtgen", "unique-names-generator", "humanize-string", "titleize", "case-anything", "param-case", "snake-case", "dot-case", "pascal-case",
  "no-case", "sentence-case",
];

/**
 * The eighteenth list (thirteenth session, 2026-12-02), written at the start of the session before
 * any change of it, so that it measures the firewall as the twelfth session left it: config loaders,
 * caches and retries, geo hashes, object paths and deep merges, streams, small HTTP clients, parsers
 * and code generators of JavaScript, CSS tooling and polyfills, hardware and local-network discovery,
 * process and clipboard helpers, SSH, FTP and sync clients, containers, Kubernetes and
 * infrastructure-as-code, cloud storage and cryptographic keys. Checked against every list above, the
 * training list, the installed packages and the registry (all 89 left exist); 80 taken evenly.
 */
export const DOC_PACKAGES_18 = [
  "json2csv", "config", "nconf", "rc", "cosmiconfig", "lilconfig", "configstore", "memoizee", "p-memoize", "retry",
  "h3-js", "ngeohash", "deep-equal", "deepmerge", "flat", "dot-prop", "object-path", "jsonpath-plus", "json-pointer", "file-type",
  "pump", "through2", "split2", "get-stream", "into-stream", "bl", "concat-stream", "bent", "ofetch", "cross-fetch",
  "relay-runtime", "acorn-walk", "esprima", "@babel/parser", "@babel/traverse", "@babel/generator", "source-map-support", "estree-walker", "astring", "escodegen",
  "clean-css", "autoprefixer", "browserslist", "caniuse-lite", "core-js", "tslib", "onoff", "node-hid", "noble", "bonjour",
  "node-ssdp", "internal-ip", "fkill", "command-exists", "opn", "clipboardy", "update-notifier", "is-wsl", "ssh2", "node-ssh",
  "ssh2-sftp-client", "basic-ftp", "ftp", "node-rsync", "dockerode", "kubernetes-client", "@kubernetes/client-node", "pulumi", "@pulumi/pulumi", "cdktf",
  "aws-cdk-lib", "serverless", "ali-oss", "cos-nodejs-sdk-v5", "secp256k1", "viem", "bip39", "jsqr", "pbkdf2", "hash.js",
];

/**
 * The nineteenth list (thirteenth session, 2026-12-02), written after the eighteenth was scored and
 * the changes that followed it were made, before anything was measured on it: numeric arrays, state
 * machines and web components, mail parsing, templates, money, accessibility, SVG, media, SQL
 * builders, CLI progress, promises and delays, retries, rate limits and password strength, random
 * strings, IoT and industrial protocols, physics and 3-D, XML, images and EXIF, markdown plugins,
 * OAuth and OpenID, access control, payments. Checked against every list above, the training list,
 * the installed packages and the registry (one did not exist); all 76 left are taken.
 */
export const DOC_PACKAGES_19 = [
  "numjs", "ndarray", "javascript-state-machine", "@lit/reactive-element", "stencil", "hybrids", "mailparser", "emailjs-mime-parser", "node-imap", "node-html-parser",
  "dot", "art-template", "squirrelly", "countdown", "money", "aria-query", "svg.js", "svg-pathdata", "peaks.js", "mediasoup-client",
  "massive", "sql-template-strings", "squel", "chalk-template", "cli-progress", "yocto-queue", "p-event", "delay", "wait-for-expect", "retry-axios",
  "axios-retry", "got-fetch", "express-slow-down", "lusca", "joi-password-complexity", "zxcvbn", "owasp-password-strength-test", "generate-password", "randomstring", "crypto-random-string",
  "node-red", "homebridge", "zigbee-herdsman", "modbus-serial", "node-opcua", "bacstack", "mqtt-packet", "aedes", "mosca", "coap",
  "@react-three/drei", "ammo.js", "planck-js", "processing-js", "xml", "builder", "saxes", "sharp-cli", "imagescript", "gifwrap",
  "upng-js", "exif-parser", "piexifjs", "remark-parse", "rehype-stringify", "markdown-it-anchor", "markdown-toc", "passport-github2", "openid-client", "oidc-provider",
  "casbin", "accesscontrol", "role-acl", "rbac", "stripe-event-types", "@paypal/checkout-server-sdk",
];

/**
 * The twentieth list (thirteenth session, 2026-12-02), written after the nineteenth was scored and
 * the changes that followed it were made, before anything was measured on it: desktop shells,
 * React Native and mobile UI kits, CSS frameworks and component libraries, realtime clients, local
 * databases, P2P, hardware, test doubles, security audits of dependencies, cloud SDKs of Google,
 * Azure and AWS, headless CMS clients, mail templates, HTML to PDF and text, headless Chromium,
 * computer vision and local model runtimes. Checked against every list above, the training list, the
 * installed packages and the registry (five did not exist); all 79 left are taken.
 */
export const DOC_PACKAGES_20 = [
  "electron-store", "electron-log", "electron-updater", "electron-is-dev", "electron-context-menu", "tauri", "@tauri-apps/api", "nw", "react-native-vector-icons", "react-native-reanimated",
  "react-native-gesture-handler", "@react-navigation/native", "expo-router", "react-native-svg", "react-native-screens", "@ionic/react", "cordova", "onsenui", "framework7", "@mantine/core",
  "@chakra-ui/react", "@radix-ui/react-dialog", "@headlessui/react", "daisyui", "flowbite", "bulma", "foundation-sites", "uikit", "semantic-ui-react", "sockjs-client",
  "@microsoft/signalr", "pusher-js", "ably", "centrifuge", "phoenix", "realm", "webtorrent", "node-red-dashboard", "serialport-gsm", "firmata",
  "jest-when", "jest-mock-extended", "proxyquire", "nock-record", "snyk", "retire", "audit-ci", "better-npm-audit", "lockfile-lint", "google-auth-library",
  "googleapis", "@google-cloud/pubsub", "@google-cloud/firestore", "@google-cloud/bigquery", "@azure/identity", "@azure/cosmos", "@azure/service-bus", "@aws-sdk/client-dynamodb", "@aws-sdk/client-sqs", "@aws-sdk/client-lambda",
  "@aws-sdk/lib-storage", "contentful", "@sanity/client", "strapi", "@directus/sdk", "wpapi", "prismic-javascript", "@keystone-6/core", "payload", "tina",
  "react-email", "inline-css", "html-to-text", "html-pdf", "chrome-aws-lambda", "@sparticuz/chromium", "opencv4nodejs", "onnxruntime-node", "@xenova/transformers",
];

/**
 * The twenty-first list (thirteenth session, 2026-12-02), written after the twentieth was scored and
 * the changes that followed it were made, before anything was measured on it: React tables, toasts,
 * layouts and gestures, Vue, Nuxt and Svelte i18n, meta-frameworks and static site generators,
 * visual regression testing, Fastify plugins, Nest modules and other server frameworks, GraphQL
 * tooling, locks and worker pools, colours, terminal capability helpers, env loaders, markdown and
 * MDX plugins. Checked against every list above, the training list, the installed packages and the
 * registry (two did not exist); all 80 left are taken.
 */
export const DOC_PACKAGES_21 = [
  "@tanstack/react-table", "notistack", "react-hot-toast", "popper.js", "react-grid-layout", "react-resizable", "@use-gesture/react", "react-intersection-observer", "vue-i18n", "nuxt-i18n",
  "@vueuse/core", "svelte-i18n", "qwik", "@astrojs/react", "@remix-run/node", "gatsby", "hexo", "hugo-bin", "docusaurus", "vuepress",
  "storybook", "percy", "backstopjs", "loki", "jest-image-snapshot", "reg-suit", "tracer", "joi-to-json", "arktype", "@fastify/static",
  "@fastify/cookie", "@fastify/session", "@fastify/formbody", "nitropack", "feathers", "@feathersjs/feathers", "loopback", "@loopback/core", "sails", "adonis",
  "@adonisjs/core", "@nestjs/core", "@nestjs/common", "@nestjs/typeorm", "@nestjs/mongoose", "@nestjs/swagger", "@nestjs/config", "@nestjs/jwt", "@nestjs/passport", "@nestjs/graphql",
  "@nestjs/microservices", "@graphql-tools/schema", "graphql-tag", "ioredis-lock", "redlock", "node-redlock", "better-queue", "threads", "plaiceholder", "culori",
  "polished", "cli-cursor", "supports-color", "has-flag", "is-unicode-supported", "widest-line", "dotenv-flow", "dotenv-safe", "env-cmd", "@t3-oss/env-core",
  "cross-var", "markdown-it-container", "markdown-it-emoji", "markdown-it-footnote", "remark-gfm", "remark-html", "rehype-highlight", "rehype-slug", "mdx", "@mdx-js/mdx",
];

/**
 * The twenty-second list (thirteenth session, 2026-12-02), written after the twenty-first was scored
 * and the changes that followed it were made, before anything was measured on it: lint configs and
 * plugins, webpack loaders and plugins, Vite and Rollup plugins, service workers and push, i18n
 * backends, dates, passport strategies and auth servers, JWT middleware, mail senders, canvas and
 * image libraries, functional utilities. Checked against every list above, the training list, the
 * installed packages and the registry (one did not exist); all 74 left are taken.
 */
export const DOC_PACKAGES_22 = [
  "eslint-plugin-react", "eslint-plugin-import", "eslint-config-airbnb", "eslint-plugin-jsx-a11y", "eslint-plugin-vue", "eslint-plugin-unicorn", "eslint-plugin-security", "typescript-eslint", "@typescript-eslint/parser", "stylelint-config-standard",
  "xo", "standard", "semistandard", "ts-standard", "babel-loader", "css-loader", "postcss-loader", "file-loader", "url-loader", "html-webpack-plugin",
  "mini-css-extract-plugin", "terser-webpack-plugin", "copy-webpack-plugin", "webpack-dev-server", "webpack-bundle-analyzer", "@vitejs/plugin-react", "@vitejs/plugin-vue", "rollup-plugin-visualizer", "@rollup/plugin-node-resolve", "@rollup/plugin-commonjs",
  "@rollup/plugin-typescript", "esbuild-plugin-copy", "unplugin-auto-import", "unplugin-vue-components", "workbox-webpack-plugin", "workbox-window", "register-service-worker", "web-push", "firebase-admin", "onesignal-node",
  "@novu/node", "expo-notifications", "i18next-http-backend", "i18next-fs-backend", "@lingui/core", "typesafe-i18n", "@date-io/date-fns", "dateformat", "passport-facebook", "passport-twitter",
  "passport-saml", "passport-azure-ad", "@auth/core", "better-auth", "@clerk/clerk-sdk-node", "supertokens-node", "keycloak-connect", "express-jwt", "jwks-rsa", "nodemailer-express-handlebars",
  "mailgun-js", "@aws-sdk/client-ses", "sparkpost", "mandrill-api", "image-js", "skia-canvas", "@napi-rs/canvas", "node-canvas-webgl", "pureimage", "ts-pattern",
  "remeda", "rambda", "radash", "es-toolkit",
];

/**
 * The twenty-third list (fourteenth session), written with the thirty-seventh set before either was
 * scored: maps and geodata, PDF and spreadsheets, audio and MIDI, CLIs, ORMs and drivers, promise
 * pools, key derivation, game engines, charts, state trees, loggers, colour extraction, slugs, thermal
 * printers and boards, health-record formats, calendars and sun position, SVG, SSH and cluster clients.
 * Checked against every list above, the training list and the installed packages; of 71 left, two are
 * out (cuid2 is not in the registry, promise-pool ships no README): 69 taken.
 */
export const DOC_PACKAGES_23 = [
  "turf", "shapefile", "hummus-recipe", "node-xlsx", "node-wav", "audio-decode", "oclif", "caporal", "plotly.js-dist", "geojson-validation",
  "wellknown", "terraformer", "osmtogeojson", "polyline", "@mapbox/polyline", "geokdbush", "supercluster", "pdf2json", "pdf-to-printer", "html-pdf-node",
  "puppeteer-report", "csvtojson", "neat-csv", "d3-dsv", "xlsx-populate", "sheetjs-style", "midi-file", "jsmediatags", "audiobuffer-to-wav", "web-audio-beat-detector",
  "pitchfinder", "meyda", "waterline-sqlite3", "typeorm-naming-strategies", "oracledb", "better-sqlite3-multiple-ciphers", "@supercharge/promise-pool", "hdkey", "retext",
  "kontra", "melonjs", "chartist", "mobx-state-tree", "isomorphic-unfetch", "debug-logger", "ololog", "colorthief", "node-vibrant", "slugify-url",
  "limax", "node-thermal-printer", "escpos", "rpio", "i2c-bus", "hl7-standard", "fhir-kit-client", "dicom-parser", "cornerstone-core",
  "ics", "tz-lookup", "suncalc", "astronomia", "svg-captcha", "svg-path-parser", "paper-jsdom", "ssh-config", "sftp-upload", "rsync",
  "nomad-client",
];

/**
 * The twenty-fourth list (fourteenth session), written with the thirty-eighth set before either was
 * scored: encryption and one-time codes, encodings, XML builders, archives, file watchers, terminal
 * helpers, version checks, proxies, key-value stores, websockets, assertion libraries, statistics
 * and OCR, peer-to-peer, chat bots, payments and SMS, algebra, MIDI and OSC, Svelte and Stencil,
 * validators, test reporters and coverage, Gulp and Grunt plugins, package managers. Checked against
 * every list above, the training list and the installed packages; of 70 left, four are out (vonage
 * not in the registry; convnetjs, volta and jspm ship no README): 66 taken.
 */
export const DOC_PACKAGES_24 = [
  "jsencrypt", "keytar", "notp", "encoding-japanese", "punycode", "idna-uts46-hx", "fast-xml-builder", "7zip-min", "node-7z", "nsfw",
  "@parcel/watcher", "gaze", "listr", "term-size", "semver-regex", "compare-versions", "semver-diff", "latest-version", "package-json", "node-http-proxy",
  "express-http-proxy", "redbird", "leveldown", "lmdb", "ws-heartbeat", "reconnecting-websocket", "primus", "chai-as-promised", "expect.js", "should",
  "power-assert", "regression", "node-tesseract-ocr", "potrace", "image-q", "bittorrent-dht", "matrix-js-sdk", "node-telegram-bot-api", "slack-bolt",
  "tmi.js", "irc-framework", "mollie-api-node", "plivo", "nexmo", "messagebird", "algebrite", "nerdamer", "rrule-alt",
  "node-osc", "easymidi", "osc-js", "neo-blessed", "svelte-routing", "@sveltejs/adapter-node", "@stencil/core", "fastest-validator", "validatorjs", "mocha-junit-reporter",
  "jest-junit", "istanbul-lib-coverage", "gulp-sass", "gulp-uglify", "gulp-concat", "gulp-rename", "grunt-contrib-uglify", "bower",
];

/**
 * The twenty-fifth list (fourteenth session), written with the thirty-ninth set before either was
 * scored: string and case helpers, deep equality and merging, JSON paths, event emitters, debounce,
 * processes, environment checks, Koa and hapi plugins, small HTTP frameworks, GraphQL servers and
 * clients, Redux middleware, forms and animation, Angular, Ember, Backbone and Knockout, Capacitor and
 * Cordova plugins, Electron helpers. Checked against every list above, the training list and the
 * installed packages; of 67 left, three are out (tinyhttp and auto-animate not in the registry,
 * marionette ships no README): 64 taken.
 */
export const DOC_PACKAGES_25 = [
  "left-pad", "is-odd", "is-even", "pad-left", "repeat-string", "decamelize", "title-case", "upper-case-first", "pluralize-esm", "didyoumean2",
  "natural-compare", "string-natural-compare", "alphanum-sort", "immutability-helper", "lodash.get", "lodash.set", "unflatten", "jsonpath", "merge-deep", "deepmerge-ts",
  "defu", "ts-deepmerge", "nanoevents", "tiny-emitter", "eventemitter2", "eventemitter3", "p-debounce", "debounce", "throttle-debounce", "lodash.debounce",
  "ps-tree", "find-process", "is-ci", "os-name", "opener", "env-paths", "koa-session", "@koa/cors", "@koa/router", "hapi-auth-jwt2",
  "@hapi/inert", "@tinyhttp/app", "apollo-server-express", "@urql/core", "redux-saga", "redux-observable", "reselect", "immer-reducer", "formik-yup",
  "@formkit/auto-animate", "angular-calendar", "ngx-toastr", "@ngrx/store", "@ngrx/effects", "ngx-bootstrap", "@angular/material", "primeng", "ember-data",
  "ember-cli-babel", "backbone", "knockout", "cordova-plugin-camera", "@capacitor/camera", "electron-log-rotate",
];

/**
 * Training documentation (fifth session): 400 packages found breadth-first over npm dependencies from
 * a seed list, none installed here and none on the held-out lists, each pinned to the version named
 * (train-docs.json). Real text written for people, for the learned layer to learn what ordinary
 * documentation asks of its reader. Train only.
 */
import trainList from "./train-docs.json" with { type: "json" };
export const TRAIN_DOC_PACKAGES: string[] = trainList;

export const docsCache = () => process.env.WEIR_DOCS_CACHE ?? join(tmpdir(), "weir-firewall-docs");
const fileOf = (pkg: string) => join(docsCache(), `${pkg.replace(/[@/]/g, "_")}.md`);

/** The READMEs of `list` found in the cache (missing ones are skipped), as benign texts of `split`. */
function cachedDocs(list: string[], prefix: string, split: "train" | "test"): FirewallText[] {
  return list.filter((p) => existsSync(fileOf(p))).map((p) => ({ id: `${prefix}:${p}`, injection: false, split, cls: "real-readme", carrier: "real-readme", text: readFileSync(fileOf(p), "utf8").slice(0, 60_000) }));
}

/** The training READMEs found in the cache: all train. */
export const trainingDocs = (): FirewallText[] => cachedDocs(TRAIN_DOC_PACKAGES, "tdoc", "train");

/** The held-out READMEs of a list found in the cache. */
export const heldOutDocs = (list: string[] = DOC_PACKAGES): FirewallText[] => cachedDocs(list, "doc", "test");

/** Every held-out list, oldest first. */
export const HELD_OUT_LISTS = [DOC_PACKAGES, DOC_PACKAGES_2, DOC_PACKAGES_3, DOC_PACKAGES_4, DOC_PACKAGES_5, DOC_PACKAGES_6, DOC_PACKAGES_7, DOC_PACKAGES_8, DOC_PACKAGES_9, DOC_PACKAGES_10, DOC_PACKAGES_11, DOC_PACKAGES_12, DOC_PACKAGES_13, DOC_PACKAGES_14, DOC_PACKAGES_15, DOC_PACKAGES_16, DOC_PACKAGES_17, DOC_PACKAGES_18, DOC_PACKAGES_19, DOC_PACKAGES_20, DOC_PACKAGES_21, DOC_PACKAGES_22, DOC_PACKAGES_23, DOC_PACKAGES_24, DOC_PACKAGES_25];

/** One package's README into the cache, through `npm pack` in a work folder of its own. */
async function fetchOne(pkg: string, slot: number): Promise<void> {
  const work = join(docsCache(), `.work-${slot}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const pack = Bun.spawn(["npm", "pack", pkg, "--silent"], { cwd: work, stdout: "ignore", stderr: "ignore" });
  await pack.exited;
  const tgz = readdirSync(work).find((n) => n.endsWith(".tgz"));
  if (pack.exitCode !== 0 || !tgz) return void console.error(`${pkg}: npm pack failed`);
  await Bun.spawn(["tar", "-xzf", tgz], { cwd: work }).exited;
  const dir = join(work, "package");
  const readme = existsSync(dir) ? readdirSync(dir).find((n) => /^readme(\.md|\.markdown)?$/i.test(n)) : undefined;
  if (!readme) return void console.error(`${pkg}: no README in the package`);
  writeFileSync(fileOf(pkg), readFileSync(join(dir, readme), "utf8"));
}

/** Fetches every missing README, eight at a time: each `npm pack` spends most of its time waiting on the registry. */
async function fetchAll() {
  mkdirSync(docsCache(), { recursive: true });
  const todo = [...new Set([...HELD_OUT_LISTS.flat(), ...TRAIN_DOC_PACKAGES])].filter((p) => !existsSync(fileOf(p)));
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async (_, slot) => {
    while (next < todo.length) await fetchOne(todo[next++]!, slot);
    rmSync(join(docsCache(), `.work-${slot}`), { recursive: true, force: true });
  }));
  console.log(`held out ${HELD_OUT_LISTS.map((l) => `${heldOutDocs(l).length}/${l.length}`).join(" and ")}, train ${trainingDocs().length}/${TRAIN_DOC_PACKAGES.length} READMEs in ${docsCache()}`);
}

if (import.meta.main) await fetchAll();
