#!/bin/sh
echo "The native Prisma schema engine is not available offline; use 'npm run db:*' (scripts/db.mts, wasm engine)." >&2
exit 1
