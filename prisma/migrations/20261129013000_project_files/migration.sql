-- CreateTable
CREATE TABLE "project_files" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "project_id" UUID NOT NULL,
    "sealed" BYTEA NOT NULL,
    "bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_files_pkey" PRIMARY KEY ("user_id","id")
);

-- CreateIndex
CREATE INDEX "project_files_user_id_project_id_idx" ON "project_files"("user_id", "project_id");

-- AddForeignKey
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_user_id_project_id_fkey" FOREIGN KEY ("user_id", "project_id") REFERENCES "projects"("user_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
