-- docs/issues.md #19: the legacy server-key path is gone. Chats saved before the vault (vault = false) were
-- encrypted under a per-user data key wrapped by ENCRYPTION_MASTER_KEY; no code reads them any more
-- and their data keys go with this migration, so they are deleted first (their messages cascade).
-- Every remaining chat is a vault chat, made in the browser under a key the server never holds.
DELETE FROM "chats" WHERE NOT "vault";

-- DropForeignKey
ALTER TABLE "data_keys" DROP CONSTRAINT "data_keys_user_id_fkey";

-- AlterTable
ALTER TABLE "chats" DROP COLUMN "vault";

-- DropTable
DROP TABLE "data_keys";
