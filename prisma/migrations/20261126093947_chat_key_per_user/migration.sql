-- DropForeignKey
ALTER TABLE "messages" DROP CONSTRAINT "messages_chat_id_fkey";

-- DropIndex
DROP INDEX "messages_chat_id_position_key";

-- AlterTable
ALTER TABLE "chats" DROP CONSTRAINT "chats_pkey",
ADD CONSTRAINT "chats_pkey" PRIMARY KEY ("user_id", "id");

-- AlterTable: each message takes its chat's owner (docs/issues.md #22, "Existence oracle": a chat's key is
-- (user_id, id), so ids are unique per user and another user's id answers as a free one).
ALTER TABLE "messages" ADD COLUMN     "user_id" TEXT;
UPDATE "messages" m SET "user_id" = c."user_id" FROM "chats" c WHERE c."id" = m."chat_id";
ALTER TABLE "messages" ALTER COLUMN "user_id" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "messages_user_id_chat_id_position_key" ON "messages"("user_id", "chat_id", "position");

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_chat_id_fkey" FOREIGN KEY ("user_id", "chat_id") REFERENCES "chats"("user_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
