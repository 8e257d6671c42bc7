-- CreateTable
CREATE TABLE "vault_devices" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "vault_devices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "vault_devices_user_id_idx" ON "vault_devices"("user_id");

-- AddForeignKey
ALTER TABLE "vault_devices" ADD CONSTRAINT "vault_devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "vaults"("user_id") ON DELETE CASCADE ON UPDATE CASCADE;
